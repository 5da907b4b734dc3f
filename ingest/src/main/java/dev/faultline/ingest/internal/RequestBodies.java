package dev.faultline.ingest.internal;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.ContentTooLargeResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Reading request bodies within a limit, and GitHub's form-encoded variant. */
public final class RequestBodies {
  private RequestBodies() {}

  /**
   * Reads at most {@code limit} bytes; a body that turns out longer (chunked, or a lying
   * Content-Length) is refused as soon as the limit is crossed, without reading the rest.
   */
  public static byte[] readLimited(InputStream in, long declaredLength, long limit)
      throws IOException {
    if (declaredLength > limit) {
      throw tooLarge(declaredLength, limit);
    }
    int initial = declaredLength > 0 ? (int) declaredLength : 8192;
    ByteArrayOutputStream out = new ByteArrayOutputStream(initial);
    byte[] buffer = new byte[16384];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) != -1) {
      total += n;
      if (total > limit) {
        throw new ContentTooLargeResponse(
            "Request body is over the limit of "
                + limit
                + " bytes (GitHub does not send payloads over 25 MB)");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  public static ContentTooLargeResponse tooLarge(long declaredLength, long limit) {
    return new ContentTooLargeResponse(
        "Request body of "
            + declaredLength
            + " bytes is over the limit of "
            + limit
            + " bytes (GitHub does not send payloads over 25 MB)");
  }

  /**
   * The {@code payload} field of an {@code application/x-www-form-urlencoded} body, as UTF-8 bytes.
   *
   * @throws BadRequestResponse when there is no such field or it is not valid percent-encoding
   */
  public static byte[] formPayload(byte[] body) {
    String form = new String(body, StandardCharsets.US_ASCII);
    int start = 0;
    while (start <= form.length()) {
      int end = form.indexOf('&', start);
      if (end < 0) {
        end = form.length();
      }
      int eq = form.indexOf('=', start);
      if (eq > start && eq < end) {
        try {
          String name = URLDecoder.decode(form.substring(start, eq), StandardCharsets.UTF_8);
          if (name.equals("payload")) {
            return URLDecoder.decode(form.substring(eq + 1, end), StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8);
          }
        } catch (IllegalArgumentException e) {
          throw new BadRequestResponse(
              "Form body is not valid application/x-www-form-urlencoded: " + e.getMessage());
        }
      }
      start = end + 1;
    }
    throw new BadRequestResponse(
        "Form-encoded delivery has no 'payload' field (GitHub sends the JSON in payload=...)");
  }
}
