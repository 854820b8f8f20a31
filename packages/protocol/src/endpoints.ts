import { accessEndpoints } from './endpoints/access.js';
import { accountEndpoints } from './endpoints/accounts.js';
import { adEndpoints } from './endpoints/ads.js';
import { advertiserEndpoints } from './endpoints/advertisers.js';
import { alarmEndpoints } from './endpoints/alarms.js';
import type { EndpointDef } from './endpoints/common.js';
import { deptEndpoints } from './endpoints/dept.js';
import { deviceGroupEndpoints } from './endpoints/deviceGroups.js';
import { deviceIoEndpoints } from './endpoints/deviceIo.js';
import { deviceReportEndpoints } from './endpoints/deviceReports.js';
import { deviceEndpoints } from './endpoints/devices.js';
import { dictionaryEndpoints } from './endpoints/dictionaries.js';
import { enterpriseEndpoints } from './endpoints/enterprise.js';
import { feedbackEndpoints } from './endpoints/feedback.js';
import { financeEndpoints } from './endpoints/finance.js';
import { flowEndpoints } from './endpoints/flow.js';
import { foundationEndpoints } from './endpoints/foundation.js';
import { gatherEndpoints } from './endpoints/gather.js';
import { geoEndpoints } from './endpoints/geo.js';
import { helpEndpoints } from './endpoints/help.js';
import { homeEndpoints } from './endpoints/home.js';
import { marketEndpoints } from './endpoints/market.js';
import { materialEndpoints } from './endpoints/materials.js';
import { monitoringEndpoints } from './endpoints/monitoring.js';
import { operationLogEndpoints } from './endpoints/operationLog.js';
import { paymentEndpoints } from './endpoints/payments.js';
import { posterEndpoints } from './endpoints/posters.js';
import { qrcodeEndpoints } from './endpoints/qrcode.js';
import { reportEndpoints } from './endpoints/reports.js';
import { roleEndpoints } from './endpoints/roles.js';
import { rtbEndpoints } from './endpoints/rtb.js';
import { salesEndpoints } from './endpoints/sales.js';
import { schedulingEndpoints } from './endpoints/scheduling.js';
import { screenshotEndpoints } from './endpoints/screenshots.js';
import { sharingEndpoints } from './endpoints/sharing.js';
import { specialEndpoints } from './endpoints/special.js';
import { storeEndpoints } from './endpoints/stores.js';
import { strategyEndpoints } from './endpoints/strategies.js';
import { upgradeEndpoints } from './endpoints/upgrades.js';
import { warningsEndpoints } from './endpoints/warnings.js';
import { watermarkEndpoints } from './endpoints/watermark.js';

export * from './endpoints/access.js';
export * from './endpoints/alarms.js';
export * from './endpoints/common.js';
export * from './endpoints/deviceGroups.js';
export * from './endpoints/devices.js';
export * from './endpoints/geo.js';
export * from './endpoints/stores.js';

import { sharesEndpoints } from './endpoints/shares.js';
import { spliceEndpoints } from './endpoints/splice.js';
import { templateEndpoints } from './endpoints/templates.js';
import { timeZoneEndpoints } from './endpoints/timeZones.js';
import { weatherEndpoints } from './endpoints/weather.js';

export * from './endpoints/access.js';
export * from './endpoints/accounts.js';
export * from './endpoints/ads.js';
export * from './endpoints/advertisers.js';
export * from './endpoints/common.js';
export * from './endpoints/customFields.js';
export * from './endpoints/dept.js';
export * from './endpoints/deviceIo.js';
export * from './endpoints/deviceReports.js';
export * from './endpoints/devices.js';
export * from './endpoints/dictionaries.js';
export * from './endpoints/enterprise.js';
export * from './endpoints/feedback.js';
export * from './endpoints/finance.js';
export * from './endpoints/flow.js';
export * from './endpoints/gather.js';
export * from './endpoints/help.js';
export * from './endpoints/home.js';
export * from './endpoints/market.js';
export * from './endpoints/materials.js';
export * from './endpoints/monitoring.js';
export * from './endpoints/operationLog.js';
export * from './endpoints/payments.js';
export * from './endpoints/posters.js';
export * from './endpoints/qrcode.js';
export * from './endpoints/reports.js';
export * from './endpoints/roles.js';
export * from './endpoints/rtb.js';
export * from './endpoints/sales.js';
export * from './endpoints/scheduling.js';
export * from './endpoints/screenshots.js';
export * from './endpoints/shares.js';
export * from './endpoints/sharing.js';
export * from './endpoints/special.js';
export * from './endpoints/splice.js';
export * from './endpoints/strategies.js';
export * from './endpoints/templates.js';
export * from './endpoints/timeZones.js';
export * from './endpoints/upgrades.js';
export * from './endpoints/warnings.js';
export * from './endpoints/watermark.js';
export * from './endpoints/weather.js';

/**
 * The endpoint catalogue (guide convention 1): every console call, one domain file each
 * under endpoints/. The server registers its routes from it; the web calls by entry name.
 * The key of each group is its domain (the endpoint file's, the server module's and the web
 * feature's one name): the web's query keys start with it, and a mutation refreshes its domain.
 */
const DOMAINS = {
  foundation: foundationEndpoints,
  home: homeEndpoints,
  access: accessEndpoints,
  operationLog: operationLogEndpoints,
  enterprise: enterpriseEndpoints,
  accounts: accountEndpoints,
  roles: roleEndpoints,
  dept: deptEndpoints,
  advertisers: advertiserEndpoints,
  sharing: sharingEndpoints,
  devices: deviceEndpoints,
  geo: geoEndpoints,
  stores: storeEndpoints,
  strategies: strategyEndpoints,
  screenshots: screenshotEndpoints,
  deviceGroups: deviceGroupEndpoints,
  splice: spliceEndpoints,
  deviceIo: deviceIoEndpoints,
  gather: gatherEndpoints,
  materials: materialEndpoints,
  templates: templateEndpoints,
  weather: weatherEndpoints,
  timeZones: timeZoneEndpoints,
  shares: sharesEndpoints,
  posters: posterEndpoints,
  ads: adEndpoints,
  scheduling: schedulingEndpoints,
  deviceReports: deviceReportEndpoints,
  reports: reportEndpoints,
  payments: paymentEndpoints,
  finance: financeEndpoints,
  market: marketEndpoints,
  flow: flowEndpoints,
  sales: salesEndpoints,
  rtb: rtbEndpoints,
  warnings: warningsEndpoints,
  qrcode: qrcodeEndpoints,
  watermark: watermarkEndpoints,
  monitoring: monitoringEndpoints,
  alarm: alarmEndpoints,
  feedback: feedbackEndpoints,
  help: helpEndpoints,
  special: specialEndpoints,
  upgrades: upgradeEndpoints,
  dictionaries: dictionaryEndpoints,
} as const;

type Groups = typeof DOMAINS;
type Merge<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

export const endpoints = Object.assign({}, ...Object.values(DOMAINS)) as Merge<Groups[keyof Groups]>;

export type EndpointDomain = keyof Groups;

const domainByName = new Map<string, EndpointDomain>(
  (Object.entries(DOMAINS) as [EndpointDomain, Record<string, EndpointDef>][]).flatMap(([domain, group]) =>
    Object.keys(group).map((name) => [name, domain] as const),
  ),
);

/** The domain an endpoint belongs to (the catalogue file it is declared in). */
export function endpointDomain(name: EndpointName): EndpointDomain {
  const domain = domainByName.get(name);
  if (!domain) throw new Error(`unknown endpoint ${name}`);
  return domain;
}

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export const ENDPOINT_LIST: readonly EndpointDef[] = Object.values(endpoints);
