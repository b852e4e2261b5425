/** The Open API v3 emulator: in-process handler, HTTP server, child process and control API. */
export {createEmulator, Emulator} from './emulator';
export type {EmulatorOptions, RecordedRequest} from './emulator';
export {DEMO_ACCOUNTS} from './demo-accounts';
export type {DemoAccount} from './demo-accounts';
export {computeToken, signHeaders, MAX_SKEW_SECONDS} from './auth';
export {CODE} from './envelope';
export type {FaultConfig, FaultRule, FaultKind} from './faults';
export type {OfferPatch, CampaignPatch, AccountSummary} from './inspect';
export type {Account, Campaign, Offer, Material, CreativeAd} from './model';
export * from './enums';
export {listen} from './server';
export type {RunningServer} from './server';
export {CONTROL_PREFIX} from './control';
export {connectEmulator} from './control-client';
export type {EmulatorControl} from './control-client';
export {startEmulatorProcess} from './child-process';
export type {EmulatorProcess, EmulatorProcessOptions} from './child-process';
