package dev.faultline.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for a server that binds a little later (another JVM, or a server
 * started after its configuration is written). A port from {@code bind(0)} comes from the kernel's
 * ephemeral range, the range outgoing connections take their local ports from too: in the seconds
 * before the server binds it, any client in the machine may take it ("Address already in use").
 * These ports are taken below that range, so only another server can collide, and each is checked
 * free when handed out.
 */
public final class FreePorts {
  private static final int LOWEST = 15000;

  private FreePorts() {}

  /**
   * {@code n} different ports, each free now, for servers of one process: picked one by one, two of
   * them could be the same port (nothing is bound between the picks), and the second server to bind
   * it fails.
   */
  public static int[] pick(int n) throws IOException {
    java.util.Set<Integer> ports = new java.util.LinkedHashSet<>();
    for (int attempt = 0; ports.size() < n; attempt++) {
      if (attempt == 100 * n) {
        throw new IOException(
            "found only " + ports.size() + " of " + n + " different free ports on 127.0.0.1");
      }
      ports.add(pick());
    }
    return ports.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * A port that is free now and not in the ephemeral range; falls back to {@code bind(0)} if none
   * is found.
   */
  public static int pick() throws IOException {
    int below = ephemeralLow();
    if (below - LOWEST > 1000) {
      for (int attempt = 0; attempt < 200; attempt++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
        if (free(port)) {
          return port;
        }
      }
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The start of the kernel's ephemeral port range (Linux), else the IANA one. */
  static int ephemeralLow() {
    // read line by line: Files.readString trusts the size procfs reports and can return a truncated
    // value
    try (var in = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      String[] range = in.readLine().trim().split("\\s+");
      return Integer.parseInt(range[0]);
    } catch (IOException | RuntimeException e) {
      return 49152;
    }
  }
}
