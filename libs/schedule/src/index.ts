// The astronomical clock, lighting strategy and broadcast programme evaluation shared by the gateway, the lighting worker and the simulator.
export { nightSun, localNoon, type NightSun } from './sun';
export {
  planNight,
  levelAt,
  levelInPlan,
  intervalAt,
  nextChangeAfter,
  nightOf,
  isSunUp,
  daylightPhaseAt,
  nightMinutes,
  isRaised,
  disagreesWithSchedule,
  type Interval,
  type NightPlan,
} from './night';
export { resolvePlace, isTimeZone, type PlaceParts, type PlaceSource } from './place';
export {
  nextWindow,
  adPlanSchedule,
  adPlanWindowAt,
  windowAt,
  scheduleTimeStatus,
  schedulesTimeStatus,
  playingAt,
  immediateDone,
  onDemandDone,
  shuffledOrder,
  type PlayWindow,
  type HeldTask,
  type PlayingNow,
} from './programme';
