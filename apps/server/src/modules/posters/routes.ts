import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  applyPosterImage,
  copyPosterTemplate,
  deletePosterTemplate,
  makePoster,
  postersMade,
  posterTemplateInfo,
  posterTemplatePage,
  savePosterTemplate,
  updatePosterTemplate,
} from './service.js';

export const posterHandlers = [
  defineHandler(endpoints.posterTemplatePage, { handle: (input, ctx) => posterTemplatePage(input, ctx) }),
  defineHandler(endpoints.posterTemplateInfo, { handle: (input, ctx) => posterTemplateInfo(input, ctx) }),
  defineHandler(endpoints.posterTemplateSave, { handle: (input, ctx) => savePosterTemplate(input, ctx) }),
  defineHandler(endpoints.posterTemplateUpdate, { handle: (input, ctx) => updatePosterTemplate(input, ctx) }),
  defineHandler(endpoints.posterTemplateCopy, { handle: (input, ctx) => copyPosterTemplate(input, ctx) }),
  defineHandler(endpoints.posterTemplateDelete, { handle: (input, ctx) => deletePosterTemplate(input, ctx) }),
  defineHandler(endpoints.posterImageApply, { handle: (input, ctx) => applyPosterImage(input, ctx) }),
  defineHandler(endpoints.posterMake, { handle: (input, ctx) => makePoster(input, ctx) }),
  defineHandler(endpoints.posterHistory, { handle: (input, ctx) => postersMade(input, ctx) }),
];
