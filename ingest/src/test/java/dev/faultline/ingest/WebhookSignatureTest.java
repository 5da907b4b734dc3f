package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {
  /** GitHub's documented test vector ("Validating webhook deliveries"). */
  private static final String DOC_SECRET = "It's a Secret to Everybody";

  private static final byte[] DOC_BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);
  private static final String DOC_SIGNATURE =
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  @Test
  void signsGitHubsDocumentedVector() {
    assertEquals(DOC_SIGNATURE, WebhookSignature.sign(DOC_SECRET, DOC_BODY));
  }

  @Test
  void verifiesGitHubsDocumentedVector() {
    assertTrue(new WebhookSignature(List.of(DOC_SECRET)).verify(DOC_BODY, DOC_SIGNATURE));
  }

  @Test
  void acceptsASignatureMadeWithAnyConfiguredSecret() {
    WebhookSignature signature = new WebhookSignature(List.of("new secret", DOC_SECRET));
    assertTrue(signature.verify(DOC_BODY, DOC_SIGNATURE));
    assertTrue(signature.verify(DOC_BODY, WebhookSignature.sign("new secret", DOC_BODY)));
  }

  @Test
  void rejectsTamperedBodiesAndMalformedHeaders() {
    WebhookSignature signature = new WebhookSignature(List.of(DOC_SECRET));
    assertFalse(signature.verify("Hello, World?".getBytes(StandardCharsets.UTF_8), DOC_SIGNATURE));
    assertFalse(signature.verify(DOC_BODY, null));
    assertFalse(signature.verify(DOC_BODY, ""));
    assertFalse(
        signature.verify(DOC_BODY, DOC_SIGNATURE.substring("sha256=".length())), "prefix required");
    assertFalse(signature.verify(DOC_BODY, "sha1=" + DOC_SIGNATURE.substring(7)));
    assertFalse(signature.verify(DOC_BODY, DOC_SIGNATURE.substring(0, DOC_SIGNATURE.length() - 2)));
    assertFalse(
        signature.verify(DOC_BODY, DOC_SIGNATURE.substring(0, DOC_SIGNATURE.length() - 2) + "zz"));
    assertTrue(
        signature.verify(DOC_BODY, DOC_SIGNATURE.toUpperCase().replace("SHA256=", "sha256=")),
        "hex case does not matter");
  }

  @Test
  void needsAtLeastOneSecret() {
    assertThrows(IllegalArgumentException.class, () -> new WebhookSignature(List.of()));
  }
}
