import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { deletePlan, listPlans, planInfo, savePlan, updatePlan } from './plans.js';
import {
  adInfo,
  adSettings,
  adTargetDevices,
  createAd,
  decideAd,
  deleteAd,
  listAds,
  saveAdSettings,
  setAdPaused,
  updateAd,
} from './service.js';

export const adHandlers = [
  defineHandler(endpoints.adList, { handle: (input, ctx) => listAds(input, ctx) }),
  defineHandler(endpoints.adInfo, { handle: (input, ctx) => adInfo(input, ctx) }),
  defineHandler(endpoints.adCreate, { handle: (input, ctx) => createAd(input, ctx) }),
  defineHandler(endpoints.adUpdate, { handle: (input, ctx) => updateAd(input, ctx) }),
  defineHandler(endpoints.adAuditPass, { handle: (input, ctx) => decideAd(input, 'first', 'pass', ctx) }),
  defineHandler(endpoints.adAuditFail, { handle: (input, ctx) => decideAd(input, 'first', 'fail', ctx) }),
  defineHandler(endpoints.adSecondAuditPass, { handle: (input, ctx) => decideAd(input, 'second', 'pass', ctx) }),
  defineHandler(endpoints.adSecondAuditFail, { handle: (input, ctx) => decideAd(input, 'second', 'fail', ctx) }),
  defineHandler(endpoints.adEnable, { handle: (input, ctx) => setAdPaused(input, false, ctx) }),
  defineHandler(endpoints.adDisable, { handle: (input, ctx) => setAdPaused(input, true, ctx) }),
  defineHandler(endpoints.adDelete, { handle: (input, ctx) => deleteAd(input, ctx) }),
  defineHandler(endpoints.adTargetDevices, { handle: (input, ctx) => adTargetDevices(input, ctx) }),
  defineHandler(endpoints.adSettings, { handle: (_input, ctx) => adSettings(ctx) }),
  defineHandler(endpoints.adSaveSettings, { handle: (input, ctx) => saveAdSettings(input, ctx) }),
  defineHandler(endpoints.planList, { handle: (input, ctx) => listPlans(input, ctx) }),
  defineHandler(endpoints.planInfo, { handle: (input, ctx) => planInfo(input, ctx) }),
  defineHandler(endpoints.planSave, { handle: (input, ctx) => savePlan(input, ctx) }),
  defineHandler(endpoints.planUpdate, { handle: (input, ctx) => updatePlan(input, ctx) }),
  defineHandler(endpoints.planDelete, { handle: (input, ctx) => deletePlan(input, ctx) }),
];
