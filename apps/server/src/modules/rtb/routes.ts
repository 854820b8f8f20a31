import { endpoints } from '@marquee/protocol';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import {
  campaignDelivery,
  campaignInfo,
  endCampaign,
  listCampaigns,
  pauseCampaign,
  saveCampaign,
} from './campaigns.js';
import {
  auctionInfo,
  deleteDsp,
  fallbackOptions,
  fillReport,
  listAuctions,
  listDsps,
  saveDsp,
  targetOptions,
} from './operator.js';
import './manifest.js';

/**
 * Programmatic airtime (issue 29; docs/ARCHITECTURE.md "Programmatic airtime"): advertisers'
 * campaigns, the operator's DSPs, auction log and fill-rate report. Importing it registers the
 * RTB slots' content source (manifest.ts); the jobs (decide.ts, billing.ts, creatives.ts) are
 * in jobs/index.ts.
 */
export const rtbHandlers: Handler[] = [
  defineHandler(endpoints.rtbCampaignList, { handle: (input, ctx) => listCampaigns(input, ctx) }),
  defineHandler(endpoints.rtbCampaignInfo, { handle: (input, ctx) => campaignInfo(input, ctx) }),
  defineHandler(endpoints.rtbCampaignSave, { handle: (input, ctx) => saveCampaign(input, ctx) }),
  defineHandler(endpoints.rtbCampaignPause, { handle: (input, ctx) => pauseCampaign(input, ctx) }),
  defineHandler(endpoints.rtbCampaignEnd, { handle: (input, ctx) => endCampaign(input, ctx) }),
  defineHandler(endpoints.rtbCampaignDelivery, { handle: (input, ctx) => campaignDelivery(input, ctx) }),
  defineHandler(endpoints.rtbTargetOptions, { handle: (_input, ctx) => targetOptions(ctx) }),
  defineHandler(endpoints.rtbDspList, { handle: (_input, ctx) => listDsps(ctx) }),
  defineHandler(endpoints.rtbDspSave, { handle: (input, ctx) => saveDsp(input, ctx) }),
  defineHandler(endpoints.rtbDspDelete, { handle: (input, ctx) => deleteDsp(input, ctx) }),
  defineHandler(endpoints.rtbAuctionList, { handle: (input, ctx) => listAuctions(input, ctx) }),
  defineHandler(endpoints.rtbAuctionInfo, { handle: (input, ctx) => auctionInfo(input, ctx) }),
  defineHandler(endpoints.rtbFillReport, { handle: (input, ctx) => fillReport(input, ctx) }),
  defineHandler(endpoints.rtbFallbackOptions, { handle: (_input, ctx) => fallbackOptions(ctx) }),
] as Handler[];
