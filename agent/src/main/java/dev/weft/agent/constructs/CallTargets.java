package dev.weft.agent.constructs;

import dev.weft.agent.constructs.ApplicationCallSites.Call;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;

/**
 * The table of one family's call-site weaving: which JDK calls it brackets and with what. A family
 * declares its table in one place ({@link ApplicationCallSites#targets()}); the one call-site path
 * uses it twice: to find, with {@link ClassScan} and without parsing, the methods of a class that
 * may call (or take a method reference to) a target, and to choose the {@link Bracket} of each such
 * call or reference.
 *
 * <pre>{@code
 * CallTargets.builder()
 *     .owners(Owners.exactly("java/util/concurrent/CountDownLatch"))
 *     .call("await()V", AWAIT)             // the family's bracket(AWAIT, call) makes the bracket
 *     .call("countDown()V", COUNT_DOWN)
 *     .build();
 * }</pre>
 */
final class CallTargets implements ClassScan.Calls {
  /** Makes the bracket of one matched call; null leaves that call alone. */
  interface BracketFactory {
    Bracket bracketFor(Call call);
  }

  /**
   * Makes the bracket of a row given by its number ({@link Builder#call(String, int)}): one switch
   * in the family instead of a lambda per row, each of which the JVM would spin a class for at the
   * agent's start.
   */
  interface Rows {
    Bracket bracket(int row, Call call);
  }

  /** The receivers (owners of the call instruction) a target accepts. */
  static final class Owners {
    private final Set<String> types;
    private final boolean subtypes;

    /** Subtypes only outside the JDK's packages (the JDK's own have rows of their own). */
    private final boolean applicationOnly;

    private Owners(Set<String> types, boolean subtypes) {
      this(types, subtypes, false);
    }

    private Owners(Set<String> types, boolean subtypes, boolean applicationOnly) {
      this.types = types;
      this.subtypes = subtypes;
      this.applicationOnly = applicationOnly;
    }

    /**
     * Classes outside the JDK that are subtypes of these, e.g. a {@code Lock} of a library's own
     * called through its class ({@code dwpt.lock()}), where the JDK's implementations are other
     * rows' (or other families').
     */
    static Owners applicationSubtypes(Set<String> types) {
      return new Owners(types, true, true);
    }

    /** Exactly these internal names. */
    static Owners exactly(String... types) {
      return exactly(Set.of(types));
    }

    /** Exactly these internal names. */
    static Owners exactly(Set<String> types) {
      return new Owners(types, false);
    }

    /**
     * These types or their subtypes, e.g. {@code invokevirtual Fib.join()} for {@code
     * ForkJoinTask}: the subtype test reads class files through the woven class's loader and loads
     * nothing ({@link SuperTypes}), and is made only once name and descriptor matched.
     */
    static Owners orSubtypes(Set<String> types) {
      return new Owners(types, true);
    }

    /** Any owner: for final methods of {@code Object} ({@code wait}, {@code notify}). */
    static Owners any() {
      return new Owners(null, false);
    }

    /** Whether the owner may match, by name alone (a superset when subtypes count). */
    boolean mayMatch(String owner) {
      if (applicationOnly) {
        return !owner.startsWith("java/") && !owner.startsWith("jdk/") && !owner.startsWith("sun/");
      }
      return types == null || subtypes || types.contains(owner);
    }

    boolean matches(Call c) {
      return types == null || (subtypes ? c.ownerIn(types) : types.contains(c.owner));
    }
  }

  /** Which invoke instructions a target accepts (a method reference counts as its invoke). */
  enum Invoke {
    ANY,
    /** {@code invokestatic}. */
    STATIC,
    /** Anything but {@code invokestatic}. */
    INSTANCE,
    /** {@code invokevirtual} and {@code invokeinterface}. */
    VIRTUAL;

    boolean accepts(int opcode) {
      switch (this) {
        case STATIC:
          return opcode == Opcodes.INVOKESTATIC;
        case INSTANCE:
          return opcode != Opcodes.INVOKESTATIC;
        case VIRTUAL:
          return opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKEINTERFACE;
        default:
          return true;
      }
    }
  }

  /** One row: owners, invoke, method, bracket (made by the factory, or else by row number). */
  private static final class Target {
    final Owners owners;
    final Invoke invoke;
    final BracketFactory factory;
    final int row;

    Target(Owners owners, Invoke invoke, BracketFactory factory, int row) {
      this.owners = owners;
      this.invoke = invoke;
      this.factory = factory;
      this.row = row;
    }
  }

  /** Rows by name + descriptor, and by name for rows that take any descriptor. */
  private final Map<String, List<Target>> byMethod;

  private final Map<String, List<Target>> byName;

  private CallTargets(Map<String, List<Target>> byMethod, Map<String, List<Target>> byName) {
    this.byMethod = byMethod;
    this.byName = byName;
  }

  static Builder builder() {
    return new Builder();
  }

  @Override
  public boolean match(String owner, String name, String method) {
    return mayMatch(byMethod.get(method), owner) || mayMatch(byName.get(name), owner);
  }

  private static boolean mayMatch(List<Target> targets, String owner) {
    if (targets != null) {
      for (Target t : targets) {
        if (t.owners.mayMatch(owner)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The bracket of the first row that matches {@code c} and gives one (rows given by number are
   * made by {@code rows}); null if none.
   */
  Bracket bracketFor(Call c, Rows rows) {
    Bracket b = bracketFor(byMethod.get(c.name + c.descriptor), c, rows);
    return b != null ? b : bracketFor(byName.get(c.name), c, rows);
  }

  private static Bracket bracketFor(List<Target> targets, Call c, Rows rows) {
    if (targets != null) {
      for (Target t : targets) {
        if (t.invoke.accepts(c.opcode) && t.owners.mayMatch(c.owner) && t.owners.matches(c)) {
          Bracket b = t.factory != null ? t.factory.bracketFor(c) : rows.bracket(t.row, c);
          if (b != null) {
            return b;
          }
        }
      }
    }
    return null;
  }

  /** Builds a table: {@link #owners} applies to the rows added after it. */
  static final class Builder {
    private final Map<String, List<Target>> byMethod = new HashMap<>();
    private final Map<String, List<Target>> byName = new HashMap<>();
    private Owners owners = Owners.any();

    /** The owners of the rows added next. */
    Builder owners(Owners owners) {
      this.owners = owners;
      return this;
    }

    /**
     * A row for {@code method}, a name and descriptor ({@code "await()V"}) or a name alone (any
     * descriptor), called by any invoke instruction.
     */
    Builder call(String method, BracketFactory factory) {
      return call(Invoke.ANY, method, factory);
    }

    /** A row for {@code method} called by {@code invoke} instructions only. */
    Builder call(Invoke invoke, String method, BracketFactory factory) {
      return add(invoke, method, new Target(owners, invoke, factory, -1));
    }

    /** A row whose bracket the family's {@link Rows} makes, by the number {@code row}. */
    Builder call(String method, int row) {
      return call(Invoke.ANY, method, row);
    }

    /** A row for {@code invoke} instructions only, made by the family's {@link Rows}. */
    Builder call(Invoke invoke, String method, int row) {
      return add(invoke, method, new Target(owners, invoke, null, row));
    }

    private Builder add(Invoke invoke, String method, Target target) {
      int paren = method.indexOf('(');
      Map<String, List<Target>> map = paren >= 0 ? byMethod : byName;
      ClassScan.addTargetName(paren >= 0 ? method.substring(0, paren) : method);
      List<Target> rows = map.get(method);
      if (rows == null) {
        rows = new ArrayList<>(1);
        map.put(method, rows);
      }
      rows.add(target);
      return this;
    }

    CallTargets build() {
      return new CallTargets(Map.copyOf(byMethod), Map.copyOf(byName));
    }
  }
}
