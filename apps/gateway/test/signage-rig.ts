import type { Socket } from 'socket.io-client';
import { MqttService, SIGNAGE_FAMILY, type ClientToServerEvents, type DispatchRowsChangedEvent, type ServerToClientEvents } from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { SIGNAGE_FAMILIES, SIGNAGE_OBSERVERS } from '../../worker-signage/src/signage-worker';
import { startTestWorker, watchFamily } from './device-worker';
import type { TestGateway } from './harness';

export interface SignageRig {
  worker: DeviceWorker;
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** Every DispatchRowsChanged of the floor screens the socket was pushed, in order. */
  rowEvents: DispatchRowsChangedEvent[];
  stop(): Promise<void>;
}

/** The signage worker on its own queue (`label`), and a console socket (signed in with `token`) watching the floor screens' rows move. */
export async function startSignageRig(gw: TestGateway, token: string, label: string): Promise<SignageRig> {
  const worker = await startTestWorker(
    gw,
    { name: 'signage', service: MqttService.WorkerSignage, families: SIGNAGE_FAMILIES, observers: SIGNAGE_OBSERVERS() },
    label,
    { ackTimeoutMs: 500 },
  );
  const socket = await watchFamily(gw, token, SIGNAGE_FAMILY.family, 'DispatchRowsChanged');
  const rowEvents: DispatchRowsChangedEvent[] = [];
  socket.on('DispatchRowsChanged', (event) => rowEvents.push(event));
  return {
    worker,
    socket,
    rowEvents,
    stop: async () => {
      socket.close();
      await worker.stop();
    },
  };
}
