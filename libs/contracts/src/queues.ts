/**
 * Work queues between the gateway and the device-family workers (BullMQ). Every job name belongs to one queue and
 * has one payload type; a worker refuses to start when one of its queue's jobs has no handler, or two. Each family's
 * declaration (families/) names the queue and job of its dispatches; QUEUE_OF_JOB is derived from them.
 */
export enum QueueName {
  LampDistribution = 'lamp-distribution',
  BroadcastTasks = 'broadcast-tasks',
  LedTasks = 'led-tasks',
  AdPublishing = 'ad-publishing',
  WifiDevices = 'wifi-devices',
  AlarmColumns = 'alarm-columns',
}

export const JobName = {
  /** Send the commands of one lamp dispatch (first attempt or a retry of the failed ones). */
  DistributeLampDispatch: 'distribute-lamp-dispatch',
  /** The same for a strip light dispatch. */
  DistributeStripDispatch: 'distribute-strip-dispatch',
  /** The commands of one broadcast terminal dispatch (volume, pause, cancel pause, stop). */
  DistributeTerminalDispatch: 'distribute-terminal-dispatch',
  /** The commands of one floor-screen dispatch (volume, mute, unmute, reboot, screenshot). */
  DistributeSignageDispatch: 'distribute-signage-dispatch',
  /** The commands of one LED screen dispatch (brightness, volume, bright or black, reboot, time sync). */
  DistributeLedDispatch: 'distribute-led-dispatch',
  /** The commands of one Wi-Fi access controller dispatch (reboot). */
  DistributeAcDispatch: 'distribute-ac-dispatch',
  /** The commands of one Wi-Fi access point dispatch (reboot). */
  DistributeApDispatch: 'distribute-ap-dispatch',
  /** The commands of one alarm column dispatch (reboot, volume). */
  DistributeAlarmDispatch: 'distribute-alarm-dispatch',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

/** Every job so far hands one dispatch of the command ledger to the worker of its family. */
export type JobPayloads = { [J in JobName]: { dispatchId: string } };

/** One job, typed by its name. */
export type Job<N extends JobName = JobName> = { [K in N]: { name: K; data: JobPayloads[K] } }[N];
