import { QueryClient } from '@tanstack/react-query';
import { AdPublishMode, type AdPlanPage } from '@sc/contracts';
import { installationZoneIn, planKeys } from './api';
import { planValues } from './plan-values';

describe('a new plan in the editor', () => {
  // 20:30 UTC on 27 November: already 28 November in Shanghai, still 27 November in Madrid and in New York.
  const evening = new Date('2026-11-27T20:30:00Z');

  it("starts and ends on today at the installation's place, not on the UTC day", () => {
    const { schedule } = planValues(null, 'Asia/Shanghai', evening);
    expect(schedule.startDate).toBe('2026-11-28');
    expect(schedule.endDate).toBe('2026-11-28');
    expect(planValues(null, 'America/New_York', evening).schedule.startDate).toBe('2026-11-27');
    // Early in the UTC day it is still yesterday west of Greenwich.
    expect(planValues(null, 'America/Los_Angeles', new Date('2026-11-28T03:00:00Z')).schedule).toMatchObject({
      startDate: '2026-11-27',
      endDate: '2026-11-27',
      allDay: true,
    });
  });

  it('keeps a plan being edited as it is', () => {
    const values = planValues(null, 'Asia/Shanghai', evening);
    const row = {
      ...values,
      publishMode: AdPublishMode.Group,
      groupId: 3,
      schedule: { ...values.schedule, startDate: '2026-12-01', endDate: '2026-12-31' },
    };
    expect(planValues({ ...row, id: 9, adNames: [] } as never, 'Asia/Shanghai', evening)).toEqual(row);
  });
});

describe("the installation's zone in the console", () => {
  it('is the one the plan page answered, whichever page of it was read; unknown before', () => {
    const queryClient = new QueryClient();
    expect(installationZoneIn(queryClient)).toBeUndefined();
    const page: AdPlanPage = { total: 0, list: [], timeZone: 'Asia/Shanghai' };
    queryClient.setQueryData(planKeys.page({ pageNum: 2, pageSize: 20, status: undefined }), page);
    queryClient.setQueryData(planKeys.calendar('2026-11-23', '2026-11-29'), []);
    expect(installationZoneIn(queryClient)).toBe('Asia/Shanghai');
  });
});
