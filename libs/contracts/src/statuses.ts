/** Statuses of spec section 4 and the alarm options of section 3. */
export enum DispatchStatus {
  ToBeSent = 'toBeSent',
  PartiallySuccessful = 'partiallySuccessful',
  AllSuccessful = 'allSuccessful',
  AllFailures = 'allFailures',
  SentSuccess = 'sentSuccess',
  SentFailed = 'sentFailed',
}

export enum TaskTimeStatus {
  NotStarted = 'notStarted',
  InProgress = 'inProgress',
  Ended = 'ended',
}

export enum TerminalStatus {
  Online = 'online',
  Offline = 'offline',
  Occupied = 'occupy',
}

export enum PlayAction {
  Play = 'play',
  Pause = 'pause',
  CancelPause = 'cancelPause',
  Stop = 'stop',
}

export enum AdReceiveStatus {
  NotPublished = 'notPublished',
  PublishedNotReceived = 'publishedNotReceived',
  ReceivedNotDownloaded = 'receivedNotDownloaded',
  Downloading = 'downloading',
  DownloadCompleted = 'downloadCompleted',
  Unknown = 'unknown',
}

export enum AdPlayMode {
  NormalLoop = 'normalLoop',
  OnDemand = 'onDemand',
  LimitedLoopInterval = 'limitedLoopInterval',
}

export enum PublishType {
  Append = 'append',
  Replace = 'replace',
  ReplaceAfterDownload = 'replaceAfterDownload',
  Clear = 'clear',
}

export enum ScreenOrientation {
  Portrait = '9:16',
  Landscape = '16:9',
}

export enum AlarmLevel {
  One = 0,
  Two = 1,
  Three = 2,
}

export enum CallType {
  OffToOff = 'OFF2OFF',
  OffToOn = 'OFF2ON',
  OnToOff = 'ON2OFF',
  OnNet = 'ONNET',
}

export enum CallStatus {
  Connected = 'Connected',
  NoReply = 'NoReply',
}

export enum CallDirection {
  Incoming = 1,
  Outgoing = 2,
  Unknown = 3,
}

export enum CallSort {
  StartTimeDesc = 1,
  StartTimeAsc = 2,
  DurationDesc = 3,
  DurationAsc = 4,
}

export enum AccountStatus {
  Suspended = 0,
  Normal = 1,
}

export enum CallProtocol {
  Sip = 'SIP',
  Voip = 'VOIP',
}

export enum BroadcastContentType {
  Audio = 1,
  Text = 2,
}

export enum PlaybackMode {
  Normal = 'normal_mode',
  ListCycle = 'list_cycle_mode',
  Random = 'random_mode',
}

export enum AgentMode {
  Idle = 'IDLE',
  Busy = 'BUSY',
  Offline = 'OFFLINE',
}

/** Limits of spec sections 5 and 9. */
export const LIMITS = {
  importMaxBytes: 5 * 1024 * 1024,
  audioMaxBytes: 50 * 1024 * 1024,
  adDurationSeconds: { min: 5, max: 600 },
  adSplitScreens: { min: 1, max: 9 },
  onDemandMaxPlays: 10_000_000,
  onDemandFixedValue: 2,
  ledMaxPeriods: 7,
  ledMaxFiles: 1,
  requestTimeoutMs: 60_000,
} as const;
