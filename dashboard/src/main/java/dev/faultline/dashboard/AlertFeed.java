package dev.faultline.dashboard;

import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The alerts as an Atom feed (RFC 4287), so a maintainer can follow them in a feed reader or pipe
 * them to chat: one entry per alert in force (a grouped alert is one entry listing every dimension
 * and category it moved), under an id that stays while members join or leave, titled with its first
 * sentence, published when it was raised and updated when the graph last took a change of its text
 * or members (so a reader sees a grouped alert change). Written with the JDK's StAX writer, which
 * escapes the text.
 */
final class AlertFeed {
  static final String ATOM = "http://www.w3.org/2005/Atom";
  static final String CONTENT_TYPE = "application/atom+xml; charset=utf-8";

  private AlertFeed() {}

  /**
   * @param alerts rows of the {@code emerging-categories} query, newest first
   * @param self the feed's own URL
   * @param framework the framework the feed is filtered to, or null
   */
  static String atom(List<Map<String, Object>> alerts, String self, String framework) {
    StringWriter out = new StringWriter();
    try {
      XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
      x.writeStartDocument("UTF-8", "1.0");
      x.writeStartElement("feed");
      x.writeDefaultNamespace(ATOM);
      text(x, "id", "urn:faultline:alerts" + (framework == null ? "" : ":" + encode(framework)));
      text(x, "title", "faultline alerts" + (framework == null ? "" : ": " + framework));
      text(x, "updated", newest(alerts));
      x.writeEmptyElement("link");
      x.writeAttribute("rel", "self");
      x.writeAttribute("href", self);
      x.writeStartElement("author");
      text(x, "name", "faultline category statistics");
      x.writeEndElement();
      for (Map<String, Object> a : alerts) {
        entry(x, a);
      }
      x.writeEndElement();
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("Cannot write the alert feed", e);
    }
    return out.toString();
  }

  private static void entry(XMLStreamWriter x, Map<String, Object> a) throws XMLStreamException {
    String explanation = String.valueOf(a.get("explanation"));
    x.writeStartElement("entry");
    text(x, "id", "urn:faultline:alert:" + encode(String.valueOf(a.get("id"))));
    text(x, "title", firstSentence(explanation));
    text(x, "published", String.valueOf(a.get("raisedAt")));
    text(x, "updated", updated(a));
    x.writeEmptyElement("category");
    x.writeAttribute("term", String.valueOf(a.get("framework")));
    x.writeEmptyElement("category");
    x.writeAttribute("term", a.get("dimension") + " " + a.get("category"));
    StringBuilder content = new StringBuilder(explanation);
    Object moved = a.get("moved");
    if (moved instanceof List<?> list && list.size() > 1) {
      content.append("\n\nMoved by this event, strongest first:");
      for (Object m : list) {
        content.append("\n- ").append(m);
      }
    }
    Object examples = a.get("examples");
    if (examples instanceof List<?> list) {
      for (Object e : list) {
        if (e instanceof Map<?, ?> issue && issue.get("url") != null) {
          content.append("\n").append(issue.get("id")).append(": ").append(issue.get("url"));
        }
      }
    }
    x.writeStartElement("content");
    x.writeAttribute("type", "text");
    x.writeCharacters(content.toString());
    x.writeEndElement();
    x.writeEndElement();
  }

  /** When an alert last changed: its {@code updatedAt}, else when it was raised. */
  static String updated(Map<String, Object> a) {
    Object u = a.get("updatedAt");
    return String.valueOf(u != null ? u : a.get("raisedAt"));
  }

  /** The feed's updated time: its newest entry's. */
  private static String newest(List<Map<String, Object>> alerts) {
    return alerts.stream()
        .map(AlertFeed::updated)
        .max(java.util.Comparator.comparing(t -> java.time.OffsetDateTime.parse(t).toInstant()))
        .orElse("1970-01-01T00:00:00Z");
  }

  /** An alert's first sentence: what it saw and what was expected (up to the test). */
  static String firstSentence(String explanation) {
    int at = explanation.indexOf(" Decided by ");
    return at < 0 ? explanation : explanation.substring(0, at);
  }

  private static void text(XMLStreamWriter x, String name, String value) throws XMLStreamException {
    x.writeStartElement(name);
    x.writeCharacters(value);
    x.writeEndElement();
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
