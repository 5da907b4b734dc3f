package dev.faultline.dashboard;

import io.javalin.http.HttpResponseException;
import java.util.Map;

/**
 * An error of the dashboard's API, answered as JSON {@code {"status", "error", "parameter"}} by the
 * one handler {@link Dashboard} registers for this type. A subclass of Javalin's typed HTTP
 * exceptions, but its own type, so the host application's mapping of other {@link
 * HttpResponseException}s (the webhook receiver's) is left alone.
 */
public final class ApiError extends HttpResponseException {
  private final String parameter;

  private ApiError(int status, String message, String parameter) {
    super(status, message, parameter == null ? Map.of() : Map.of("parameter", parameter));
    this.parameter = parameter;
  }

  /** 400 naming the query parameter at fault and what to do about it. */
  public static ApiError badParameter(String parameter, String message) {
    return new ApiError(400, parameter + ": " + message, parameter);
  }

  /** 404: nothing of that kind. */
  public static ApiError notFound(String message) {
    return new ApiError(404, message, null);
  }

  /** 405: the dashboard is read-only. */
  public static ApiError methodNotAllowed(String method, String path) {
    return new ApiError(
        405,
        "Method " + method + " not allowed on " + path + ": the dashboard is read-only, use GET",
        null);
  }

  /** The query parameter at fault, or null. */
  public String parameter() {
    return parameter;
  }
}
