import { OperationStatus } from '@sc/contracts';
import { validateUserSearch } from '../users/search';
import { validateGroupSearch } from '../groups/search';
import { validateLogSearch } from '../log/search';
import { dayEndIso, dayStartIso, localIso } from './date-fields';
import { paging } from '@/navigation/search-params';

describe('system pages: search params', () => {
  it('keeps valid user filters and drops malformed or empty ones', () => {
    expect(
      validateUserSearch({
        pageNum: 2,
        pageSize: 50,
        username: '  ops ',
        groupId: '3',
        status: 'disabled',
        loginFrom: '2026-01-01',
        loginTo: '2026-02-30x',
      }),
    ).toEqual({ pageNum: 2, pageSize: 50, username: 'ops', groupId: 3, status: 'disabled', loginFrom: '2026-01-01' });
    expect(validateUserSearch({ pageNum: 0, pageSize: 7, username: '', groupId: -1, status: 'maybe' })).toEqual({});
  });

  it('reads the roles tab and the log filters', () => {
    expect(validateGroupSearch({ tab: 'admin', groupName: 'Night' })).toEqual({ tab: 'admin', groupName: 'Night' });
    expect(validateGroupSearch({ tab: 'other' })).toEqual({});
    expect(
      validateLogSearch({ status: OperationStatus.Failure, operator: 'admin', startTime: '2026-01-01T08:30', endTime: '2026-01-01 08:30' }),
    ).toEqual({
      status: OperationStatus.Failure,
      operator: 'admin',
      startTime: '2026-01-01T08:30',
    });
  });

  it('applies page defaults', () => {
    expect(paging({})).toEqual({ pageNum: 1, pageSize: 20 });
    expect(paging({ pageNum: 3, pageSize: 100 })).toEqual({ pageNum: 3, pageSize: 100 });
  });

  it('turns local days and date-times into ISO instants covering the whole day', () => {
    expect(dayStartIso('2026-03-01')).toBe(new Date(2026, 2, 1, 0, 0, 0, 0).toISOString());
    expect(dayEndIso('2026-03-01')).toBe(new Date(2026, 2, 1, 23, 59, 59, 999).toISOString());
    expect(localIso('2026-03-01T08:15')).toBe(new Date(2026, 2, 1, 8, 15).toISOString());
    expect(dayStartIso(undefined)).toBeUndefined();
    expect(localIso('nonsense')).toBeUndefined();
  });
});
