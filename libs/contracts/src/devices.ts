/** Device and enumeration values of spec section 3. */
export enum DeviceType {
  LampPole = 0,
  SingleLamp = 1,
  LightStrip = 2,
  Broadcast = 3,
  LedScreen = 4,
  Radar = 5,
  AccessPoint = 6,
  OneKeyAlarm = 7,
  /**
   * A Wi-Fi access controller (the spec's device types stop at 7; its Wi-Fi module lists access controllers beside
   * the APs they manage, so they are registry devices too: region, pole, login and selection like the others).
   */
  AccessController = 8,
  /**
   * Video equipment (spec "Video monitoring": cameras, recorders, checkpoint and display equipment of the video device
   * categories): registry devices too, so that they have a region, a pole and a place on the map like the others.
   */
  VideoEquipment = 9,
}

export enum LampStatus {
  Normal = 0,
  Synchronizing = -1,
  Distributing = -2,
  DistributionFailed = -3,
  DistributionSucceeded = -4,
  Offline = -5,
}

export enum FaultCode {
  VoltageLow = 1,
  VoltageHigh = 2,
  AFlashes = 3,
  ALedFailure = 4,
  TemperatureHigh = 5,
  BFlashes = 6,
  BLedFailure = 7,
  NotGrounded = 8,
}

export enum StripLightStatus {
  Synchronizing = 'synchronizing',
  Normal = 'normal',
  NotGrounded = 'notGrounded',
  BLightFailure = 'bLightFailure',
  BLightFlashes = 'bLightFlashes',
  TemperatureTooHigh = 'temperatureTooHigh',
  ALightFailure = 'aLightFailure',
  ALightFlashes = 'aLightFlashes',
  VoltageTooHigh = 'voltageTooHigh',
  VoltageLow = 'voltageLow',
}

export enum StrategyMode {
  SunriseSunset = 0,
  Date = 1,
  Week = 2,
  Sensing = 3,
}

/** Weekdays are the strings '1' (Monday) to '7' (Sunday); none selected means all seven. */
export const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export enum Zone {
  Left = 'L',
  Right = 'R',
}

export enum MediaType {
  Picture = 1,
  Video = 2,
}

export enum LedPlayMode {
  Synchronous = 1,
  Asynchronous = 2,
}

export enum ScreenState {
  Bright = 1,
  Black = 2,
}

export enum OnlineState {
  Offline = 0,
  Online = 1,
}
export const ONLINE_STATES = [OnlineState.Offline, OnlineState.Online] as const;

export enum SwitchState {
  Off = 0,
  On = 1,
}

export const DIMMING_LEVELS = [0, 20, 40, 60, 80, 100] as const;
export type DimmingLevel = (typeof DIMMING_LEVELS)[number];

export enum LightEffectType {
  OnOff = 1,
  Breathing = 2,
  ExplosiveFlash = 3,
  SetColour = 6,
}

/** On/off effects: -1 on, -2 off, -3 switch. */
export enum OnOffEffect {
  On = -1,
  Off = -2,
  Switch = -3,
}
export const BREATHING_EFFECTS = [1, 2, 3, 4, 5, 6, 7] as const;
export const FLASHING_EFFECTS = [8, 9, 10, 11, 12, 13, 14, 15] as const;

export enum VideoVendor {
  Dahua = 1,
  Haikang = 2,
  Other = 3,
}

/** Video device categories with their sub-types. */
export const VIDEO_DEVICE_CATEGORIES = {
  encoding: { code: 1, types: { DVR: 1, IPC: 2, MXVR: 5, NVR: 6, MPT: 9, EVS: 10, thermalImaging: 26, IVSS: 43, EEC: 97 } },
  checkpoint: { code: 5, types: { checkpoint: 1, IVS: 18, intelligentTerminal: 19, speedometer: 20, trafficCamera: 22 } },
  emergency: { code: 34, types: { alarmColumn: 1 } },
  displayControl: { code: 45, types: { splicer: 4, videoIntegratedPlatform: 6 } },
  ipSpeaker: { code: 53, types: {} },
} as const;
