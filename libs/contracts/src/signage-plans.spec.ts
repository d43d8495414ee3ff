import { DispatchItemState } from './lighting';
import { AdPlayMode, AdReceiveStatus, PublishType } from './statuses';
import {
  AD_ON_DEMAND,
  AdPublishMode,
  adPlanOccurrences,
  adReceiveStatusOf,
  adPlanProblems,
  adPlansOverlap,
  effectiveWeekdays,
  isMeaningfulName,
  type AdPlanRequest,
  type AdPlanSchedule,
} from './signage-plans';

const schedule = (over: Partial<AdPlanSchedule> = {}): AdPlanSchedule => ({
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  allDay: true,
  weekdays: [],
  ...over,
});

const plan = (over: Partial<AdPlanRequest> = {}): AdPlanRequest => ({
  publishName: 'Winter sale',
  publishMode: AdPublishMode.Group,
  groupId: 3,
  adIds: [1, 2],
  schedule: schedule(),
  playMode: AdPlayMode.NormalLoop,
  publishType: PublishType.Replace,
  ...over,
});

const keys = (p: Partial<AdPlanRequest>) => adPlanProblems(p).map((x) => `${x.field}:${x.key}`);

describe('ad plan rules', () => {
  it('accepts a complete plan', () => {
    expect(adPlanProblems(plan())).toEqual([]);
    expect(adPlanProblems(plan({ publishMode: AdPublishMode.Devices, groupId: undefined, deviceIds: [4] }))).toEqual([]);
  });

  it('wants a meaningful publish name', () => {
    for (const name of ['', '   ', '---', '!!! ???', 'x'.repeat(65), undefined]) expect(isMeaningfulName(name)).toBe(false);
    for (const name of ['A', '冬季促销', 'セール 2', 'Oferta de invierno']) expect(isMeaningfulName(name)).toBe(true);
    expect(keys(plan({ publishName: ' -- ' }))).toEqual(['publishName:publishNameRequired']);
  });

  it('wants its screens: devices chosen, or a group', () => {
    expect(keys(plan({ publishMode: AdPublishMode.Devices, groupId: undefined, deviceIds: [] }))).toEqual(['deviceIds:pleaseSelect']);
    expect(keys(plan({ groupId: null }))).toEqual(['groupId:selectGroup']);
    expect(keys(plan({ publishMode: 'everything' as AdPublishMode }))).toEqual(['publishMode:pleaseSelect']);
  });

  it('wants ads unless it clears the screens', () => {
    expect(keys(plan({ adIds: [] }))).toEqual(['adIds:adPlanNeedsAds']);
    expect(adPlanProblems(plan({ adIds: [], publishType: PublishType.Clear }))).toEqual([]);
  });

  it('bounds on-demand plays at ten million, with the fixed on-demand type 2', () => {
    const onDemand = { playMode: AdPlayMode.OnDemand, onDemandType: AD_ON_DEMAND.type };
    expect(adPlanProblems(plan({ ...onDemand, playLimitCount: 10_000_000 }))).toEqual([]);
    expect(keys(plan({ ...onDemand, playLimitCount: 10_000_001 }))).toEqual(['playLimitCount:playLimitInvalid']);
    expect(keys(plan({ ...onDemand, playLimitCount: 0 }))).toEqual(['playLimitCount:playLimitInvalid']);
    expect(keys(plan({ ...onDemand, playLimitCount: 2.5 }))).toEqual(['playLimitCount:playLimitInvalid']);
    expect(keys(plan({ ...onDemand, playLimitCount: 5, onDemandType: 1 }))).toEqual(['onDemandType:onDemandTypeFixed']);
  });

  it('wants a limited loop to say how many runs and how far apart', () => {
    const loop = { playMode: AdPlayMode.LimitedLoopInterval };
    expect(adPlanProblems(plan({ ...loop, playLimitCount: 3, playIntervalSeconds: 60 }))).toEqual([]);
    expect(keys(plan({ ...loop, playLimitCount: 3 }))).toEqual(['playIntervalSeconds:playIntervalInvalid']);
    expect(keys(plan({ ...loop, playIntervalSeconds: 86_401, playLimitCount: 3 }))).toEqual(['playIntervalSeconds:playIntervalInvalid']);
  });

  it('checks dates, times and weekdays', () => {
    expect(keys(plan({ schedule: schedule({ endDate: '2026-11-30' }) }))).toEqual(['schedule.endDate:orderWrong']);
    expect(keys(plan({ schedule: schedule({ startDate: '2026-02-30' }) }))).toEqual(['schedule.startDate:dateInvalid']);
    expect(keys(plan({ schedule: schedule({ startDate: '' }) }))).toEqual(['schedule.startDate:cannotBeEmpty']);
    expect(keys(plan({ schedule: schedule({ allDay: false, startTime: '18:00', endTime: '08:00' }) }))).toEqual(['schedule.endTime:orderWrong']);
    expect(keys(plan({ schedule: schedule({ allDay: false, startTime: '08:00', endTime: '08:00' }) }))).toEqual(['schedule.endTime:timeRepeats']);
    expect(keys(plan({ schedule: schedule({ allDay: false, startTime: '08:00' }) }))).toEqual(['schedule.endTime:timeEmpty']);
    expect(adPlanProblems(plan({ schedule: schedule({ allDay: false, startTime: '18:00', endTime: '00:00' }) }))).toEqual([]);
    expect(keys(plan({ schedule: schedule({ weekdays: ['8' as never] }) }))).toEqual(['schedule.weekdays:invalidValue']);
  });
});

describe('ad plan calendar', () => {
  it('reads no weekday chosen as all seven', () => {
    expect(effectiveWeekdays([])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(effectiveWeekdays(['7', '1'])).toEqual(['1', '7']);
  });

  it('lists the days a plan plays within the asked range', () => {
    // 2026-12-05 is a Saturday, 2026-12-06 a Sunday.
    const weekend = schedule({ weekdays: ['6', '7'], allDay: false, startTime: '09:00', endTime: '00:00' });
    expect(adPlanOccurrences(weekend, '2026-11-20', '2026-12-13')).toEqual([
      { date: '2026-12-05', start: 540, end: 1440 },
      { date: '2026-12-06', start: 540, end: 1440 },
      { date: '2026-12-12', start: 540, end: 1440 },
      { date: '2026-12-13', start: 540, end: 1440 },
    ]);
  });

  it('finds where two plans meet, and only there', () => {
    const mornings = schedule({ allDay: false, startTime: '08:00', endTime: '12:00', weekdays: ['1'] });
    const lateMorning = schedule({ allDay: false, startTime: '11:00', endTime: '14:00', startDate: '2026-12-10' });
    expect(adPlansOverlap(mornings, lateMorning)).toEqual({ date: '2026-12-14', start: 660, end: 720 });
    // Windows that only touch do not meet; nor do different weekdays or dates that never meet.
    expect(adPlansOverlap(mornings, schedule({ allDay: false, startTime: '12:00', endTime: '13:00' }))).toBeNull();
    expect(adPlansOverlap(mornings, schedule({ weekdays: ['2', '3'] }))).toBeNull();
    expect(adPlansOverlap(mornings, schedule({ startDate: '2027-01-01', endDate: '2027-12-31' }))).toBeNull();
    // A Monday-only plan and a plan of three days that hold no Monday.
    expect(adPlansOverlap(mornings, schedule({ startDate: '2026-12-01', endDate: '2026-12-03' }))).toBeNull();
  });
});

describe('ad plan receive status', () => {
  it('follows the ledger row and its receipts, in the order a screen passes through them', () => {
    expect(adReceiveStatusOf(null)).toBe(AdReceiveStatus.NotPublished);
    expect(adReceiveStatusOf({ state: DispatchItemState.Queued, receipt: null })).toBe(AdReceiveStatus.PublishedNotReceived);
    expect(adReceiveStatusOf({ state: DispatchItemState.Sent, receipt: null })).toBe(AdReceiveStatus.PublishedNotReceived);
    expect(adReceiveStatusOf({ state: DispatchItemState.Sent, receipt: { stage: 'received' } })).toBe(AdReceiveStatus.ReceivedNotDownloaded);
    expect(adReceiveStatusOf({ state: DispatchItemState.Sent, receipt: { stage: 'downloading' } })).toBe(AdReceiveStatus.Downloading);
    expect(adReceiveStatusOf({ state: DispatchItemState.Delivered, receipt: { stage: 'downloading' } })).toBe(AdReceiveStatus.DownloadCompleted);
    for (const state of [DispatchItemState.Failed, DispatchItemState.Expired])
      expect(adReceiveStatusOf({ state, receipt: { stage: 'downloading' } })).toBe(AdReceiveStatus.Unknown);
  });
});
