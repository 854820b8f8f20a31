/**
 * The package's own few strings (rule messages and the renderer's placeholders), per locale.
 * The player has no i18next, so the package carries this small table; the console may use it
 * directly or mirror it in its i18n namespace.
 */
export type LayoutLocale = 'zh-CN' | 'en-US' | 'ja';
export const LAYOUT_LOCALES: readonly LayoutLocale[] = ['zh-CN', 'en-US', 'ja'];

const zhCN = {
  'rule.minPages': '删除失败，布局至少保留一页',
  'rule.maxLiveComponents': '一个布局最多只能有 6 个直播组件',
  'rule.oneAutoJump': '只能有一个自动跳转的交互按钮',
  'rule.maxComponents': '布局中的组件数量过多',
  'rule.uniqueIds': '页面或组件的标识重复',
  'rule.jumpTarget': '按钮跳转的页面不存在',
  'rule.notEditable': '布局不可编辑或升级',
  'editor.selectComponent': '请先选择组件',
  'editor.unsupported': '组件不支持该功能',
  'render.weatherUnavailable': '暂无天气数据',
  'render.noMaterial': '未选择素材',
  'render.materialMissing': '素材不可用',
  'render.noUrl': '未设置网址',
  'render.streamError': '直播无法播放',
  'render.online': '在线',
  'render.offline': '离线',
  'render.countdownDays': '{d} 天',
  'render.emptyQr': '未设置二维码内容',
} as const;

export type LayoutMessageId = keyof typeof zhCN;

export const layoutMessages: Record<LayoutLocale, Record<LayoutMessageId, string>> = {
  'zh-CN': zhCN,
  'en-US': {
    'rule.minPages': 'Delete failed: a layout must keep at least one page',
    'rule.maxLiveComponents': 'A layout can have at most 6 live-stream components',
    'rule.oneAutoJump': 'Only one interactive button can jump automatically',
    'rule.maxComponents': 'The layout has too many components',
    'rule.uniqueIds': 'A page or component id is used twice',
    'rule.jumpTarget': 'The page this button jumps to does not exist',
    'rule.notEditable': 'This layout cannot be edited or upgraded',
    'editor.selectComponent': 'Select a component first',
    'editor.unsupported': 'This component does not support this feature',
    'render.weatherUnavailable': 'Weather data unavailable',
    'render.noMaterial': 'No material selected',
    'render.materialMissing': 'Material unavailable',
    'render.noUrl': 'No address set',
    'render.streamError': 'The live stream cannot be played',
    'render.online': 'Online',
    'render.offline': 'Offline',
    'render.countdownDays': '{d} days',
    'render.emptyQr': 'No QR code content',
  },
  ja: {
    'rule.minPages': '削除できません。レイアウトには少なくとも 1 ページが必要です',
    'rule.maxLiveComponents': '1 つのレイアウトに配置できるライブ配信コンポーネントは 6 個までです',
    'rule.oneAutoJump': '自動ジャンプするインタラクティブボタンは 1 つだけです',
    'rule.maxComponents': 'レイアウトのコンポーネントが多すぎます',
    'rule.uniqueIds': 'ページまたはコンポーネントの ID が重複しています',
    'rule.jumpTarget': 'ボタンのジャンプ先ページが存在しません',
    'rule.notEditable': 'このレイアウトは編集・アップグレードできません',
    'editor.selectComponent': '先にコンポーネントを選択してください',
    'editor.unsupported': 'このコンポーネントはこの機能に対応していません',
    'render.weatherUnavailable': '天気データを取得できません',
    'render.noMaterial': '素材が選択されていません',
    'render.materialMissing': '素材を利用できません',
    'render.noUrl': 'URL が設定されていません',
    'render.streamError': 'ライブ配信を再生できません',
    'render.online': 'オンライン',
    'render.offline': 'オフライン',
    'render.countdownDays': '{d} 日',
    'render.emptyQr': 'QR コードの内容が設定されていません',
  },
};

/** A message in `locale` (zh-CN when the locale is unknown), with {name} placeholders filled. */
export function layoutMessage(
  locale: string | undefined,
  id: LayoutMessageId,
  vars: Record<string, string | number> = {},
): string {
  const table =
    layoutMessages[(LAYOUT_LOCALES as readonly string[]).includes(locale ?? '') ? (locale as LayoutLocale) : 'zh-CN'];
  return table[id].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}
