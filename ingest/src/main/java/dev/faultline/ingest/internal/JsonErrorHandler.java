package dev.faultline.ingest.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (headers too large, malformed HTTP, shutdown) as JSON, like every
 * other error.
 */
public final class JsonErrorHandler extends ErrorHandler {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback)
      throws IOException {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
    return ByteBuffer.wrap(body(status, reason));
  }

  private static byte[] body(int code, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", code);
    body.put("error", message == null || message.isBlank() ? HttpStatus.getMessage(code) : message);
    try {
      return MAPPER.writeValueAsBytes(body);
    } catch (IOException e) {
      return ("{\"status\":" + code + "}").getBytes(StandardCharsets.UTF_8);
    }
  }
}
