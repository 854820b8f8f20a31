import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });
/** The store module's messages in the three languages. */
export const StoreText = {
  notFound: text(
    '门店不存在或无权访问',
    'The store does not exist or is not accessible',
    '店舗が存在しないか、アクセスできません',
  ),
  nameTaken: text('已有同名门店', 'A store with this name already exists', '同じ名前の店舗が既にあります'),
  hasDevices: text(
    '该门店中仍有 {count} 台设备，请先将设备移出门店再删除',
    'This store still has {count} device(s). Move them out of the store before deleting it',
    'この店舗にはまだ {count} 台のデバイスがあります。デバイスを店舗から移動してから削除してください',
  ),
  regionNotFound: text('所选区域不存在', 'The chosen region does not exist', '選択した地域は存在しません'),
};

/** A text with `{name}` placeholders filled in every language. */
export function fill(t: LocalizedText, values: Record<string, string | number>): LocalizedText {
  const out = { ...t };
  for (const key of Object.keys(out) as (keyof LocalizedText)[]) {
    out[key] = out[key].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
  }
  return out;
}
