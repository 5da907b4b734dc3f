package dev.faultline.jobs.normalise;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Turns a delivery into the issue state it carries. Pure: no Flink types. Deliveries of events that carry no issue
 * (ping, label, release, or pull requests here) give {@link Optional#empty()}; a delivery that claims to be about
 * an issue but cannot be read throws {@link PoisonRecordException} with the reason.
 */
public final class IssueNormaliser {
  private final ObjectMapper json;

  public IssueNormaliser(ObjectMapper json) {
    this.json = json;
  }

  public Optional<IssueEvent> normalise(Delivery delivery) throws PoisonRecordException {
    String event = delivery.getEvent();
    if (!"issues".equals(event) && !"issue_comment".equals(event)) {
      return Optional.empty();
    }
    JsonNode payload;
    try {
      payload = json.readTree(delivery.getPayloadJson());
    } catch (JsonProcessingException e) {
      throw new PoisonRecordException("payload of delivery " + delivery.getDeliveryId() + " is not JSON: " + e.getOriginalMessage());
    }
    JsonNode issue = payload.path("issue");
    if (!issue.isObject()) {
      throw new PoisonRecordException(event + " delivery " + delivery.getDeliveryId() + " has no issue object");
    }
    String repo =
        DeliveryKey.repository(payload)
            .orElseThrow(() -> new PoisonRecordException(event + " delivery " + delivery.getDeliveryId() + " has no repository.full_name"));
    JsonNode number = issue.path("number");
    if (!number.isIntegralNumber()) {
      throw new PoisonRecordException(event + " delivery " + delivery.getDeliveryId() + " has no integer issue.number");
    }
    IssueEvent out = new IssueEvent();
    out.repo = repo;
    out.number = number.asInt();
    out.id = DeliveryKey.issueId(repo, out.number);
    out.deliveryId = delivery.getDeliveryId();
    out.event = event;
    out.action = delivery.getAction() != null ? delivery.getAction() : text(payload, "action");
    out.title = Optional.ofNullable(text(issue, "title")).orElse("");
    out.body = text(issue, "body");
    out.url = Optional.ofNullable(text(issue, "html_url")).orElse("https://github.com/" + repo + "/issues/" + out.number);
    out.author = text(issue.path("user"), "login");
    for (JsonNode label : issue.path("labels")) {
      String name = label.isTextual() ? label.asText() : text(label, "name");
      if (name != null) {
        out.labels.add(name);
      }
    }
    out.createdAt = time(issue, "created_at", delivery).orElseThrow(() -> missing("issue.created_at", delivery));
    out.updatedAt = time(issue, "updated_at", delivery).orElse(out.createdAt);
    out.closedAt = time(issue, "closed_at", delivery).orElse(null);
    out.state = "deleted".equals(out.action) && "issues".equals(event) ? "deleted" : Optional.ofNullable(text(issue, "state")).orElse("open");
    return Optional.of(out);
  }

  private static PoisonRecordException missing(String field, Delivery delivery) {
    return new PoisonRecordException("delivery " + delivery.getDeliveryId() + " has no " + field);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isValueNode() && !value.isNull() ? value.asText() : null;
  }

  private static Optional<Long> time(JsonNode node, String field, Delivery delivery) throws PoisonRecordException {
    String value = text(node, field);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value).toEpochMilli());
    } catch (DateTimeParseException e) {
      throw new PoisonRecordException("delivery " + delivery.getDeliveryId() + " has an unreadable " + field + ": " + value);
    }
  }
}
