package dev.faultline.classifier.learned;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An encoder that remembers the vectors of texts it has seen, by a SHA-256 of the text, in a file:
 * re-training on the same corpus does not encode it again. The file holds hashes and vectors only,
 * never text.
 */
public final class CachedEmbedder implements TextEmbedder {

  private final TextEmbedder inner;
  private final Path file;
  private final Map<String, float[]> cache = new ConcurrentHashMap<>();
  private int added;

  public CachedEmbedder(TextEmbedder inner, Path dir) throws IOException {
    this.inner = inner;
    Files.createDirectories(dir);
    this.file = dir.resolve("vectors-" + inner.name() + ".bin");
    if (Files.exists(file)) {
      try (InputStream in = Files.newInputStream(file);
          DataInputStream d = new DataInputStream(new java.io.BufferedInputStream(in))) {
        while (true) {
          String key;
          try {
            key = d.readUTF();
          } catch (EOFException e) {
            break;
          }
          float[] v = new float[d.readInt()];
          for (int i = 0; i < v.length; i++) {
            v[i] = d.readFloat();
          }
          cache.put(key, v);
        }
      } catch (IOException e) {
        cache.clear(); // a torn file: start over
      }
    }
  }

  @Override
  public float[] embed(String text) {
    String key = key(text);
    float[] v = cache.get(key);
    if (v == null) {
      v = inner.embed(text);
      cache.put(key, v);
      added++;
    }
    return v;
  }

  /** Writes the cache if anything was added. */
  public void save() throws IOException {
    if (added == 0) {
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp);
        DataOutputStream d = new DataOutputStream(new java.io.BufferedOutputStream(out))) {
      for (Map.Entry<String, float[]> e : new java.util.TreeMap<>(cache).entrySet()) {
        d.writeUTF(e.getKey());
        d.writeInt(e.getValue().length);
        for (float f : e.getValue()) {
          d.writeFloat(f);
        }
      }
    }
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static String key(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The encoder behind the cache. */
  public TextEmbedder inner() {
    return inner;
  }

  @Override
  public int dimension() {
    return inner.dimension();
  }

  @Override
  public String name() {
    return inner.name();
  }
}
