package dev.faultline.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  @Test
  void handsOutBindablePortsBelowTheEphemeralRange() throws Exception {
    int low = FreePorts.ephemeralLow();
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.pick();
      assertTrue(port < low, port + " is in the ephemeral range from " + low);
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress("127.0.0.1", port));
      }
    }
  }
}
