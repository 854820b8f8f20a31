import { endpoints } from '@marquee/protocol';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import * as s from './service.js';

export const monitoringHandlers = [
  defineHandler(endpoints.monitoringApply, { handle: (input, ctx) => s.apply(input, ctx) }),
  defineHandler(endpoints.monitoringApplications, { handle: (_input, ctx) => s.applications(ctx) }),
  defineHandler(endpoints.monitoringMonitors, { handle: (_input, ctx) => s.monitors(ctx) }),
  defineHandler(endpoints.monitoringPlanList, { handle: (input, ctx) => s.planList(input, ctx) }),
  defineHandler(endpoints.monitoringPlanCreate, { handle: (input, ctx) => s.planCreate(input, ctx) }),
  defineHandler(endpoints.monitoringTaskList, { handle: (input, ctx) => s.taskList(input, ctx) }),
  defineHandler(endpoints.monitoringTaskInfo, { handle: (input, ctx) => s.taskInfo(input, ctx) }),
  defineHandler(endpoints.monitoringTaskView, { handle: (input, ctx) => s.taskView(input, ctx) }),
  defineHandler(endpoints.monitoringPhotoApply, { handle: (input, ctx) => s.photoApply(input, ctx) }),
  defineHandler(endpoints.monitoringPhotoVerify, { handle: (input, ctx) => s.photoVerify(input, ctx) }),
  defineHandler(endpoints.monitoringTaskComplete, { handle: (input, ctx) => s.taskComplete(input, ctx) }),
  defineHandler(endpoints.monitoringTaskClose, { handle: (input, ctx) => s.taskClose(input, ctx) }),
  defineHandler(endpoints.monitoringTaskReopen, { handle: (input, ctx) => s.taskReopen(input, ctx) }),
  defineHandler(endpoints.monitoringAdEvidence, { handle: (input, ctx) => s.adEvidence(input, ctx) }),
] as Handler[];
