import { QueryClient } from '@tanstack/react-query';
import { DeviceFamily, LampStatus, OnlineState, StripLightStatus, type PageResult, type StripRow } from '@sc/contracts';
import { patchStripRows, stripKeys } from './api';
import { validateStripSearch } from './search';

const strip = (id: number, overrides: Partial<StripRow> = {}): StripRow => ({
  id,
  lampName: `Strip ${id}`,
  clientId: `STRIP-${id}`,
  regionId: null,
  regionName: null,
  groupId: null,
  groupName: null,
  gatewayId: '',
  addr: '',
  mac: '',
  bri: 0,
  color: '',
  zones: null,
  status: LampStatus.Synchronizing,
  networkStatus: OnlineState.Offline,
  telemetry: null,
  faults: [],
  statusLabels: [StripLightStatus.Synchronizing],
  hardwareVersion: '',
  softwareVersion: '',
  reportedAt: null,
  strategyId: null,
  strategyName: null,
  ...overrides,
});

describe('strip list live patching', () => {
  it('patches the strip in every cached page and recomputes its status labels', () => {
    const queryClient = new QueryClient();
    const query = { pageNum: 1, pageSize: 20 };
    queryClient.setQueryData<PageResult<StripRow>>(stripKeys.page(query), { list: [strip(1), strip(2)], total: 2 });
    const event = (changed: Record<string, unknown>) => ({ family: DeviceFamily.Strip, recordId: 1, deviceCode: 'STRIP-1', changed, at: '' });

    patchStripRows(queryClient, event({ status: LampStatus.Normal, networkStatus: OnlineState.Online }));
    let rows = queryClient.getQueryData<PageResult<StripRow>>(stripKeys.page(query))!.list;
    expect(rows[0]).toMatchObject({ status: 0, networkStatus: 1, statusLabels: ['normal'] });
    expect(rows[1]).toBe(rows[1]);

    // A fault alone (no status in the event) still changes the labels.
    patchStripRows(queryClient, event({ faults: [2, 7] }));
    rows = queryClient.getQueryData<PageResult<StripRow>>(stripKeys.page(query))!.list;
    expect(rows[0].statusLabels).toEqual(['bLightFailure', 'voltageTooHigh']);
    expect(rows[1].statusLabels).toEqual(['synchronizing']);
  });

  it('keeps only a well-formed dispatch id and the filters in the address', () => {
    expect(validateStripSearch({ lampName: ' bridge ', regionId: '3', dispatch: 'nope', extra: 1 })).toEqual({ lampName: 'bridge', regionId: 3 });
    const id = '0b6f7a0e-5f0c-4c59-9d0e-4bb3c1a2f001';
    expect(validateStripSearch({ dispatch: id })).toEqual({ dispatch: id });
  });
});
