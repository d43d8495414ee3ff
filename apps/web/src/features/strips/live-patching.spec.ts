import { QueryClient } from '@tanstack/react-query';
import { DeviceFamily, LampStatus, OnlineState, StripLightStatus, type PageResult, type StripRow } from '@sc/contracts';
import { patchLiveRows } from '@/realtime/live-rows';
import { stripKeys } from './api';
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
  it('patches the strip in every cached page, status labels included, and leaves the other rows as they were', () => {
    const queryClient = new QueryClient();
    const query = { pageNum: 1, pageSize: 20 };
    queryClient.setQueryData<PageResult<StripRow>>(stripKeys.page(query), { list: [strip(1), strip(2)], total: 2 });
    const untouched = queryClient.getQueryData<PageResult<StripRow>>(stripKeys.page(query))!.list[1];
    const event = (changed: Record<string, unknown>) => ({
      family: DeviceFamily.Strip as const,
      changes: [{ recordId: 1, deviceCode: 'STRIP-1', changed }],
      at: '',
    });

    patchLiveRows(queryClient, stripKeys.all, event({ status: LampStatus.Normal, networkStatus: OnlineState.Online, statusLabels: ['normal'] }));
    let rows = queryClient.getQueryData<PageResult<StripRow>>(stripKeys.page(query))!.list;
    expect(rows[0]).toMatchObject({ status: 0, networkStatus: 1, statusLabels: ['normal'] });
    expect(rows[1]).toBe(untouched);

    // The worker announces the labels that follow from a fault with it.
    patchLiveRows(queryClient, stripKeys.all, event({ faults: [2, 7], statusLabels: ['bLightFailure', 'voltageTooHigh'] }));
    rows = queryClient.getQueryData<PageResult<StripRow>>(stripKeys.page(query))!.list;
    expect(rows[0]).toMatchObject({ faults: [2, 7], statusLabels: ['bLightFailure', 'voltageTooHigh'], status: 0 });
    expect(rows[1]).toBe(untouched);
  });

  it('keeps only a well-formed dispatch id and the filters in the address', () => {
    expect(validateStripSearch({ lampName: ' bridge ', regionId: '3', dispatch: 'nope', extra: 1 })).toEqual({ lampName: 'bridge', regionId: 3 });
    const id = '0b6f7a0e-5f0c-4c59-9d0e-4bb3c1a2f001';
    expect(validateStripSearch({ dispatch: id })).toEqual({ dispatch: id });
  });
});
