import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The split-screen module's messages in the three languages. */
export const SpliceText = {
  notFound: text(
    '拼接屏不存在或无权访问',
    'the splicing screen does not exist or is not accessible',
    'スプライシングスクリーンが存在しないか、アクセスできません',
  ),
  rotationNeedsScaling: text(
    '屏幕旋转需要先开启分屏缩放',
    'Screen rotation needs tile scaling: turn tile scaling on first',
    '画面の回転にはタイルのスケーリングが必要です。先にスケーリングをオンにしてください',
  ),
  outsideGrid: text(
    '拼接位置超出了行列范围',
    'A tile lies outside the rows and columns of the splicing screen',
    'タイルの位置がスプライシングスクリーンの行・列の範囲外です',
  ),
  positionTwice: text(
    '同一位置只能放一台设备',
    'Each position holds one device only',
    '1 つの位置に置けるデバイスは 1 台だけです',
  ),
  deviceTwice: text(
    '同一台设备不能占用两个位置',
    'A device can fill only one position of a splicing screen',
    '1 台のデバイスは 1 つの位置にしか置けません',
  ),
  deviceInOtherWall: (names: string): LocalizedText =>
    text(
      `设备已属于其他拼接屏：${names}`,
      `Already a tile of another splicing screen: ${names}`,
      `ほかのスプライシングスクリーンで使用中のデバイス：${names}`,
    ),
};
