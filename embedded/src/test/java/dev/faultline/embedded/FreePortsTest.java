package dev.faultline.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

  @Test
  void handsOutDifferentPortsForTheServersOfOneProcess() throws Exception {
    int[] ports = FreePorts.pick(200);
    assertEquals(
        200, java.util.Arrays.stream(ports).distinct().count(), java.util.Arrays.toString(ports));
    for (int port : ports) {
      assertTrue(port < FreePorts.ephemeralLow(), port + " is in the ephemeral range");
    }
  }
}
