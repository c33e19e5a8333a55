package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When {@link AttachListener} may signal a process, read from its /proc files. */
class AttachListenerTest {
  /** A JVM's status: it catches SIGQUIT (bit 2 of SigCgt) among others. */
  private static final String CATCHES_QUIT =
      "Name:\tjava\nNSpid:\t4242\nSigBlk:\t0000000000000000\nSigCgt:\t2000000181005ccf\n";

  /** A JVM started with -Xrs: SIGQUIT is not caught, so it would terminate the process. */
  private static final String IGNORES_QUIT =
      "Name:\tjava\nNSpid:\t4242\nSigCgt:\t2000000181005cc8\n";

  @Test
  void signalsOnlyAProcessThatCatchesSigquit() {
    assertTrue(AttachListener.safeToSignal(CATCHES_QUIT, "java\n-cp\napp.jar\nMain", "HOME=/x"));
    assertFalse(AttachListener.safeToSignal(IGNORES_QUIT, "java\nMain", "HOME=/x"));
    assertFalse(AttachListener.safeToSignal("Name:\tjava\n", "java\nMain", ""));
  }

  @Test
  void neverWhenAttachingMayBeDisabledUnseen() {
    for (String args :
        new String[] {
          "java\n@options\nMain",
          "java\n-XX:Flags=flags.txt\nMain",
          "java\n-XX:VMOptionsFile=vm.txt\nMain",
          "java\n-XX:+DisableAttachMechanism\nMain"
        }) {
      assertFalse(AttachListener.safeToSignal(CATCHES_QUIT, args, ""), args);
    }
    for (String env :
        new String[] {
          "JAVA_TOOL_OPTIONS=-XX:+DisableAttachMechanism",
          "JDK_JAVA_OPTIONS=@more-options",
          "_JAVA_OPTIONS=-XX:+DisableAttachMechanism"
        }) {
      assertFalse(AttachListener.safeToSignal(CATCHES_QUIT, "java\nMain", "A=1\n" + env), env);
    }
    assertTrue(AttachListener.safeToSignal(CATCHES_QUIT, "java\nMain", "JAVA_TOOL_OPTIONS=-Xmx1g"));
  }

  @Test
  void theTargetsOwnPidInsideItsNamespace() {
    assertEquals(7, AttachListener.namespacePid("Name:\tjava\nNSpid:\t31337\t7\n", 31337));
    assertEquals(4242, AttachListener.namespacePid(CATCHES_QUIT, 4242));
    assertEquals(99, AttachListener.namespacePid("Name:\tjava\n", 99));
  }
}
