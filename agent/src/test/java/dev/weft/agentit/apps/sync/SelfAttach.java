package dev.weft.agentit.apps.sync;

import com.sun.tools.attach.VirtualMachine;

/** Loads the agent into this very JVM, as {@code weft attach} does from outside. */
final class SelfAttach {
  private SelfAttach() {}

  /** Attaches to this JVM and loads {@code agentJar} with {@code options}; returns when loaded. */
  static void loadAgent(String agentJar, String options) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
    try {
      vm.loadAgent(agentJar, options);
    } finally {
      vm.detach();
    }
  }

  /** Detaches the agent from this JVM, as {@code weft detach} does; fails when it was not there. */
  static void detach() throws Exception {
    // The agent runs in a loader of its own; AgentLoader (on the class path) reaches it.
    Object dir = Class.forName("dev.weft.agent.AgentLoader").getMethod("detach").invoke(null);
    if (dir == null) {
      throw new IllegalStateException("not attached");
    }
  }
}
