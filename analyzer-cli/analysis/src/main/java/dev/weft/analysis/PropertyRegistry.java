package dev.weft.analysis;

import dev.weft.analysis.properties.BarrierWait;
import dev.weft.analysis.properties.CarrierUtilisation;
import dev.weft.analysis.properties.ConditionWait;
import dev.weft.analysis.properties.DelayCost;
import dev.weft.analysis.properties.DelayCostBarrier;
import dev.weft.analysis.properties.DelayCostCondition;
import dev.weft.analysis.properties.DelayCostJoin;
import dev.weft.analysis.properties.DelayCostLock;
import dev.weft.analysis.properties.DelayCostLongTerm;
import dev.weft.analysis.properties.Execution;
import dev.weft.analysis.properties.IdleThreads;
import dev.weft.analysis.properties.IoWait;
import dev.weft.analysis.properties.JoinWait;
import dev.weft.analysis.properties.LimitedParallelism;
import dev.weft.analysis.properties.LockApiContention;
import dev.weft.analysis.properties.LockContention;
import dev.weft.analysis.properties.MonitorContention;
import dev.weft.analysis.properties.NetworkIdle;
import dev.weft.analysis.properties.PoolQueueWait;
import dev.weft.analysis.properties.SpinWait;
import dev.weft.analysis.properties.TaskQueueIdle;
import dev.weft.analysis.properties.ThreadManagement;
import dev.weft.analysis.properties.Time;
import dev.weft.analysis.properties.TimerIdle;
import dev.weft.analysis.properties.VthreadPinning;
import dev.weft.analysis.properties.WorkImbalance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The list of analysis properties, in report order (a parent before its children). Adding a
 * property is one class and one line here.
 */
public final class PropertyRegistry {
  private static final List<Supplier<Property>> PROPERTIES =
      List.of(
          Time::new,
          Execution::new,
          IdleThreads::new,
          LimitedParallelism::new,
          NetworkIdle::new,
          TaskQueueIdle::new,
          TimerIdle::new,
          ThreadManagement::new,
          JoinWait::new,
          BarrierWait::new,
          LockContention::new,
          MonitorContention::new,
          LockApiContention::new,
          SpinWait::new,
          ConditionWait::new,
          IoWait::new,
          PoolQueueWait::new,
          WorkImbalance::new,
          DelayCost::new,
          DelayCostBarrier::new,
          DelayCostLock::new,
          DelayCostCondition::new,
          DelayCostJoin::new,
          DelayCostLongTerm::new,
          VthreadPinning::new,
          CarrierUtilisation::new);

  private PropertyRegistry() {}

  /** New, unbound instances of every property (each analysis needs its own). */
  public static List<Property> create() {
    List<Property> list = new ArrayList<>();
    for (Supplier<Property> s : PROPERTIES) {
      list.add(s.get());
    }
    return list;
  }

  /** The metadata of every property, in report order. */
  public static List<PropertyInfo> infos() {
    List<PropertyInfo> list = new ArrayList<>();
    for (Property p : create()) {
      list.add(p.info());
    }
    return list;
  }

  /** The metadata of {@code id}, or null. */
  public static PropertyInfo info(String id) {
    for (PropertyInfo i : infos()) {
      if (i.id().equals(id)) {
        return i;
      }
    }
    return null;
  }

  /**
   * Links a fresh property list into a tree over {@code cube}.
   *
   * @throws IllegalStateException if ids repeat or a parent is missing or listed after its child
   */
  static void bind(List<Property> properties, SeverityCube cube) {
    Map<String, Property> byId = new HashMap<>();
    for (int i = 0; i < properties.size(); i++) {
      Property p = properties.get(i);
      String parentId = p.info().parent();
      Property parent = null;
      if (!parentId.isEmpty()) {
        parent = byId.get(parentId);
        if (parent == null) {
          throw new IllegalStateException(
              "property " + p.id() + ": parent " + parentId + " must be registered before it");
        }
      }
      if (byId.put(p.id(), p) != null) {
        throw new IllegalStateException("property id registered twice: " + p.id());
      }
      p.bind(i, parent, cube);
    }
  }
}
