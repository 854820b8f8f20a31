import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });
/** The screenshot module's messages in the three languages. */
export const ScreenshotText = {
  notFound: text(
    '截图不存在或无权访问',
    'The screenshot does not exist or is not accessible',
    'スクリーンショットが存在しないか、アクセスできません',
  ),
  commandNotFound: text(
    '该设备没有此截图指令',
    'This device has no such screenshot command',
    'このデバイスにはそのスクリーンショットコマンドがありません',
  ),
  commandClosed: text(
    '截图指令已结束或已过期',
    'The screenshot command is already closed or expired',
    'スクリーンショットコマンドは既に終了しているか、期限切れです',
  ),
  noUpload: text(
    '设备未上传截图',
    'The device uploaded no screenshot',
    'デバイスからスクリーンショットがアップロードされていません',
  ),
};
