import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import * as s from './service.js';

export const specialHandlers = [
  defineHandler(endpoints.specialResourceList, { handle: (input, ctx) => s.resourceList(input, ctx) }),
  defineHandler(endpoints.specialPhotoApply, { handle: (input, ctx) => s.photoApply(input, ctx) }),
  defineHandler(endpoints.specialResourceSave, { handle: (input, ctx) => s.resourceSave(input, ctx) }),
  defineHandler(endpoints.specialInquiryList, { handle: (input, ctx) => s.inquiryList(input, ctx) }),
  defineHandler(endpoints.specialInquiryAnswer, { handle: (input, ctx) => s.inquiryAnswer(input, ctx) }),
  defineHandler(endpoints.specialListed, { handle: (input, ctx) => s.listed(input, ctx) }),
  defineHandler(endpoints.specialInquire, { handle: (input, ctx) => s.inquire(input, ctx) }),
  defineHandler(endpoints.specialMyInquiries, { handle: (input, ctx) => s.myInquiries(input, ctx) }),
  defineHandler(endpoints.specialInquiryRespond, { handle: (input, ctx) => s.inquiryRespond(input, ctx) }),
];
