package dev.faultline.ingest.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only file of (key, value) records with a separately stored read position: the local
 * spool for deliveries Kafka could not take.
 *
 * <p>Record layout: {@code int keyLength, int valueLength, key, value, int crc32c(key, value)}.
 * Appends are fsynced before they return. The read position lives in {@code spool.offset}, replaced
 * atomically after each drained batch, so a crash resends at most one batch (at-least-once;
 * consumers dedupe by delivery id). A torn record at the end (a crash mid-append, never
 * acknowledged) is cut off on open.
 *
 * <p>One appending thread and one reading thread may use it concurrently; {@link #reset()} must not
 * run concurrently with {@link #append}.
 */
public final class SpoolFile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SpoolFile.class);
  private static final int HEADER = 8;
  private static final int TRAILER = 4;

  /** Refuse absurd lengths from a corrupt file rather than allocating them. */
  private static final int MAX_RECORD = 64 * 1024 * 1024;

  private final Path file;
  private final Path offsetFile;
  private final FileChannel channel;
  private volatile long end;
  private volatile long readPosition;
  private final AtomicLong depth = new AtomicLong();

  /** One record and the position just after it. */
  public record Entry(String key, byte[] value, long nextPosition) {}

  private SpoolFile(Path file, Path offsetFile, FileChannel channel) {
    this.file = file;
    this.offsetFile = offsetFile;
    this.channel = channel;
  }

  /**
   * Opens (creating) the spool in {@code dir}, recovering its read position and cutting off a torn
   * tail.
   */
  public static SpoolFile open(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("deliveries.spool");
    Path offsetFile = dir.resolve("spool.offset");
    FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    SpoolFile spool = new SpoolFile(file, offsetFile, channel);
    try {
      spool.recover();
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return spool;
  }

  private void recover() throws IOException {
    long size = channel.size();
    long position = 0;
    if (Files.exists(offsetFile)) {
      String text = Files.readString(offsetFile, StandardCharsets.US_ASCII).trim();
      try {
        position = Long.parseLong(text);
      } catch (NumberFormatException e) {
        LOG.warn(
            "Spool offset file {} is unreadable; re-reading the spool from its start", offsetFile);
      }
    }
    if (position < 0 || position > size) {
      position = 0;
    }
    long count = 0;
    long p = position;
    while (p < size) {
      Entry entry = readAt(p, size);
      if (entry == null) {
        LOG.warn(
            "Spool {} has a torn or corrupt record at byte {}; cutting it off (it was never acknowledged)",
            file,
            p);
        channel.truncate(p);
        channel.force(true);
        break;
      }
      count++;
      p = entry.nextPosition();
    }
    this.end = p;
    this.readPosition = position;
    depth.set(count);
  }

  /** Appends the records and fsyncs them; returns when they are durable. */
  public void append(List<Entry> entries) throws IOException {
    int total = 0;
    for (Entry e : entries) {
      total +=
          HEADER + e.key().getBytes(StandardCharsets.UTF_8).length + e.value().length + TRAILER;
    }
    ByteBuffer buffer = ByteBuffer.allocate(total);
    for (Entry e : entries) {
      byte[] key = e.key().getBytes(StandardCharsets.UTF_8);
      buffer.putInt(key.length).putInt(e.value().length).put(key).put(e.value());
      CRC32C crc = new CRC32C();
      crc.update(key);
      crc.update(e.value());
      buffer.putInt((int) crc.getValue());
    }
    buffer.flip();
    long position = end;
    while (buffer.hasRemaining()) {
      position += channel.write(buffer, position);
    }
    channel.force(false);
    end = position;
    depth.addAndGet(entries.size());
  }

  /**
   * Up to {@code maxRecords} (and roughly {@code maxBytes}, at least one) records from the read
   * position.
   */
  public List<Entry> read(int maxRecords, long maxBytes) throws IOException {
    List<Entry> out = new ArrayList<>();
    long p = readPosition;
    long limit = end;
    long bytes = 0;
    while (p < limit && out.size() < maxRecords && (out.isEmpty() || bytes < maxBytes)) {
      Entry entry = readAt(p, limit);
      if (entry == null) {
        throw new IOException("Spool " + file + " is corrupt at byte " + p);
      }
      bytes += entry.nextPosition() - p;
      out.add(entry);
      p = entry.nextPosition();
    }
    return out;
  }

  /** Marks everything before {@code position} ({@code records} records) as delivered, durably. */
  public void commit(long position, int records) throws IOException {
    Path tmp = offsetFile.resolveSibling(offsetFile.getFileName() + ".tmp");
    try (FileChannel out =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      out.write(ByteBuffer.wrap(Long.toString(position).getBytes(StandardCharsets.US_ASCII)));
      out.force(true);
    }
    Files.move(
        tmp, offsetFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    readPosition = position;
    depth.addAndGet(-records);
  }

  /** Empties a fully drained spool so it does not grow without bound. */
  public void reset() throws IOException {
    if (depth.get() != 0) {
      throw new IllegalStateException("Spool still holds " + depth.get() + " records");
    }
    // Truncate first: a crash before the offset is rewritten leaves an offset past the end of the
    // file, which
    // recover() treats as 0. The other order could make recover() resend every drained record.
    channel.truncate(0);
    channel.force(true);
    end = 0;
    commit(0, 0);
  }

  /** Records appended and not yet committed as delivered. */
  public long depth() {
    return depth.get();
  }

  /** Bytes in the file. */
  public long sizeBytes() {
    return end;
  }

  private Entry readAt(long position, long limit) throws IOException {
    if (limit - position < HEADER) {
      return null;
    }
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    readFully(header, position);
    int keyLength = header.getInt(0);
    int valueLength = header.getInt(4);
    if (keyLength < 0 || valueLength < 0 || keyLength > MAX_RECORD || valueLength > MAX_RECORD) {
      return null;
    }
    long next = position + HEADER + keyLength + valueLength + TRAILER;
    if (next > limit) {
      return null;
    }
    ByteBuffer body = ByteBuffer.allocate(keyLength + valueLength + TRAILER);
    readFully(body, position + HEADER);
    byte[] key = new byte[keyLength];
    byte[] value = new byte[valueLength];
    body.get(0, key).get(keyLength, value);
    CRC32C crc = new CRC32C();
    crc.update(key);
    crc.update(value);
    if ((int) crc.getValue() != body.getInt(keyLength + valueLength)) {
      return null;
    }
    return new Entry(new String(key, StandardCharsets.UTF_8), value, next);
  }

  private void readFully(ByteBuffer buffer, long position) throws IOException {
    long p = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, p);
      if (n < 0) {
        throw new IOException("Unexpected end of spool " + file + " at byte " + p);
      }
      p += n;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
