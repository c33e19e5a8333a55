package dev.weft.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Hands the replay's occurrences to the properties that subscribe to them: those overriding the
 * callback whose parent does not (a parent that handles a callback notifies its children itself).
 * Before each wait it tells the wait log, when there is one, to start recording what the properties
 * claim.
 */
final class PropertyDispatch implements Occurrences {
  private final Property[] idleHandlers;
  private final Property[] joinHandlers;
  private final Property[] barrierHandlers;
  private final Property[] lockHandlers;
  private final Property[] spinHandlers;
  private final Property[] waitHandlers;
  private final Property[] remainderHandlers;
  private final Property[] taskHandlers;
  private final Property[] regionHandlers;
  private final Property[] carrierHandlers;

  /** Null unless the waits are wanted one by one ({@link Analyzer.Options#withWaits}). */
  private WaitLog waits;

  PropertyDispatch(List<Property> properties) {
    idleHandlers = handlers(properties, "onIdle", IdleTime.class);
    joinHandlers = handlers(properties, "onJoinWait", JoinWaitSegment.class);
    barrierHandlers = handlers(properties, "onBarrierWait", BarrierArrival.class);
    lockHandlers = handlers(properties, "onLockAcquisition", LockAcquisition.class);
    spinHandlers = handlers(properties, "onSpin", WaitSpan.class);
    waitHandlers = handlers(properties, "onWait", WaitSpan.class);
    remainderHandlers = handlers(properties, "onRemainder", ThreadTime.class);
    taskHandlers = handlers(properties, "onTaskStart", TaskStart.class);
    regionHandlers = handlers(properties, "onRegion", RegionBusy.class);
    carrierHandlers = handlers(properties, "onCarrierSwitch", CarrierSwitch.class);
  }

  void logWaitsTo(WaitLog waits) {
    this.waits = waits;
  }

  private static Property[] handlers(
      List<Property> properties, String method, Class<?> occurrence) {
    List<Property> list = new ArrayList<>();
    for (Property p : properties) {
      if (overrides(p, method, occurrence)
          && (p.parent() == null || !overrides(p.parent(), method, occurrence))) {
        list.add(p);
      }
    }
    return list.toArray(new Property[0]);
  }

  private static boolean overrides(Property p, String method, Class<?> occurrence) {
    try {
      return p.getClass().getMethod(method, occurrence).getDeclaringClass() != Property.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private void beginWait() {
    if (waits != null) {
      waits.begin();
    }
  }

  @Override
  public void idle(IdleTime idle) {
    for (Property p : idleHandlers) {
      p.onIdle(idle);
    }
  }

  @Override
  public void joinWait(JoinWaitSegment join) {
    beginWait();
    for (Property p : joinHandlers) {
      p.onJoinWait(join);
    }
  }

  @Override
  public void barrierWait(BarrierArrival arrival) {
    beginWait();
    for (Property p : barrierHandlers) {
      p.onBarrierWait(arrival);
    }
  }

  @Override
  public void lockAcquisition(LockAcquisition acquisition) {
    beginWait();
    for (Property p : lockHandlers) {
      p.onLockAcquisition(acquisition);
    }
  }

  @Override
  public void spin(WaitSpan spin) {
    beginWait();
    for (Property p : spinHandlers) {
      p.onSpin(spin);
    }
  }

  @Override
  public void waitSpan(WaitSpan wait) {
    beginWait();
    for (Property p : waitHandlers) {
      p.onWait(wait);
    }
  }

  @Override
  public void remainder(ThreadTime time) {
    for (Property p : remainderHandlers) {
      p.onRemainder(time);
    }
  }

  @Override
  public void taskStart(TaskStart start) {
    beginWait();
    for (Property p : taskHandlers) {
      p.onTaskStart(start);
    }
  }

  @Override
  public void region(RegionBusy region) {
    for (Property p : regionHandlers) {
      p.onRegion(region);
    }
  }

  @Override
  public boolean wantsCarrierSwitches() {
    return carrierHandlers.length > 0;
  }

  @Override
  public void carrierSwitch(CarrierSwitch carrierSwitch) {
    for (Property p : carrierHandlers) {
      p.onCarrierSwitch(carrierSwitch);
    }
  }
}
