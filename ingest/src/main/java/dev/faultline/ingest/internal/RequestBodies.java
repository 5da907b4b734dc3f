package dev.faultline.ingest.internal;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.ContentTooLargeResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reading request bodies within a limit, and GitHub's form-encoded variant. */
public final class RequestBodies {
  private RequestBodies() {}

  /**
   * Reads at most {@code limit} bytes; a body that turns out longer (chunked, or a lying
   * Content-Length) is refused as soon as the limit is crossed, without reading the rest. A body of
   * its declared length is read straight into an array of that length.
   */
  public static byte[] readLimited(InputStream in, long declaredLength, long limit)
      throws IOException {
    if (declaredLength > limit) {
      throw tooLarge(declaredLength, limit);
    }
    if (declaredLength <= 0) {
      return readRest(in, new ByteArrayOutputStream(8192), limit);
    }
    byte[] body = new byte[(int) declaredLength];
    int read = in.readNBytes(body, 0, body.length);
    if (read < body.length) {
      return Arrays.copyOf(body, read);
    }
    int next = in.read();
    if (next == -1) {
      return body;
    }
    // Longer than declared: the rest the general way, within the limit.
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 2);
    out.write(body);
    out.write(next);
    return readRest(in, out, limit);
  }

  private static byte[] readRest(InputStream in, ByteArrayOutputStream out, long limit)
      throws IOException {
    byte[] buffer = new byte[16384];
    long total = out.size();
    if (total > limit) {
      throw overLimit(limit);
    }
    int n;
    while ((n = in.read(buffer)) != -1) {
      total += n;
      if (total > limit) {
        throw overLimit(limit);
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static ContentTooLargeResponse overLimit(long limit) {
    return new ContentTooLargeResponse(
        "Request body is over the limit of "
            + limit
            + " bytes (GitHub does not send payloads over 25 MB)");
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
