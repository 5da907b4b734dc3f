package dev.faultline.infra.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;

/**
 * The local stack's two secrets: the webhook secret and the Neo4j password. Taken from the
 * environment when set; otherwise generated once and kept (owner-only) in {@code
 * <data-dir>/secrets.properties}, so a restart on the same data directory keeps working with the
 * same curl commands and the same graph login.
 */
public record LocalSecrets(
    String webhookSecret, boolean webhookGenerated, String neo4jPassword, boolean neo4jGenerated) {
  public static final String ENV_WEBHOOK_SECRET = "FAULTLINE_WEBHOOK_SECRET";
  public static final String ENV_NEO4J_PASSWORD = "FAULTLINE_NEO4J_PASSWORD";
  private static final String FILE = "secrets.properties";

  public static LocalSecrets resolve(Path dataDir, Map<String, String> env) throws IOException {
    Path file = dataDir.resolve(FILE);
    Properties stored = new Properties();
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file)) {
        stored.load(in);
      }
    }
    SecureRandom random = new SecureRandom();
    String webhook = env.get(ENV_WEBHOOK_SECRET);
    boolean webhookGenerated = false;
    if (webhook == null || webhook.isEmpty()) {
      webhook = stored.getProperty("webhook.secret");
      if (webhook == null) {
        webhook = generate(random);
        webhookGenerated = true;
      }
    }
    String neo4j = env.get(ENV_NEO4J_PASSWORD);
    boolean neo4jGenerated = false;
    if (neo4j == null || neo4j.isEmpty()) {
      neo4j = stored.getProperty("neo4j.password");
      if (neo4j == null) {
        neo4j = generate(random);
        neo4jGenerated = true;
      }
    }
    if (webhookGenerated || neo4jGenerated) {
      if (webhookGenerated) {
        stored.setProperty("webhook.secret", webhook);
      }
      if (neo4jGenerated) {
        stored.setProperty("neo4j.password", neo4j);
      }
      Files.createDirectories(dataDir);
      try (Writer out = Files.newBufferedWriter(file)) {
        stored.store(
            out, "faultline local secrets, generated because the environment did not set them");
      }
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException ignored) {
        // not a POSIX file system: nothing more to restrict
      }
    }
    return new LocalSecrets(webhook, webhookGenerated, neo4j, neo4jGenerated);
  }

  private static String generate(SecureRandom random) {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public String toString() {
    return "LocalSecrets{webhookSecret=****, neo4jPassword=****}";
  }
}
