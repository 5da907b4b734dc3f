package dev.faultline.ingest;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * GitHub's {@code X-Hub-Signature-256}: {@code sha256=} and the hex HMAC-SHA256 of the raw request
 * body keyed with the webhook secret. Several secrets may be valid at once, so a secret can be
 * rotated without losing deliveries. Thread-safe.
 */
public final class WebhookSignature {
  public static final String HEADER = "X-Hub-Signature-256";
  private static final String PREFIX = "sha256=";
  private static final String ALGORITHM = "HmacSHA256";
  private static final int DIGEST_HEX_LENGTH = 64;

  private final List<SecretKeySpec> keys;

  /**
   * @param secrets at least one secret
   */
  public WebhookSignature(List<String> secrets) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException(
          "At least one webhook secret is needed to verify signatures");
    }
    List<SecretKeySpec> k = new ArrayList<>();
    for (String secret : secrets) {
      k.add(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
    }
    this.keys = List.copyOf(k);
  }

  /** The header value GitHub would send for {@code body} signed with the first secret. */
  public String sign(byte[] body) {
    return PREFIX + HexFormat.of().formatHex(hmac(keys.get(0), body));
  }

  /** The header value for {@code body} signed with {@code secret}. */
  public static String sign(String secret, byte[] body) {
    return new WebhookSignature(List.of(secret)).sign(body);
  }

  /**
   * True when {@code header} is a well-formed {@code sha256=<hex>} signature of {@code body} under
   * any configured secret. Every secret is tried (no early exit on the first match) and digests are
   * compared in constant time.
   */
  public boolean verify(byte[] body, String header) {
    if (header == null
        || !header.startsWith(PREFIX)
        || header.length() != PREFIX.length() + DIGEST_HEX_LENGTH) {
      return false;
    }
    byte[] claimed;
    try {
      claimed = HexFormat.of().parseHex(header, PREFIX.length(), header.length());
    } catch (IllegalArgumentException e) {
      return false;
    }
    boolean match = false;
    for (SecretKeySpec key : keys) {
      match |= MessageDigest.isEqual(hmac(key, body), claimed);
    }
    return match;
  }

  private static byte[] hmac(SecretKeySpec key, byte[] body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }
}
