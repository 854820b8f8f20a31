/** The player's few messages in its three languages, picked from navigator.language. */
const messages = {
  'en-US': {
    pairTitle: 'Pair this screen',
    pairHint: 'In the Marquee console, add a device and enter this code, or scan the QR code.',
    pairExpires: 'The code is valid until {time}.',
    pairStarting: 'Requesting a pairing code…',
    pairFailed: 'Cannot reach the server. Retrying in {sec} s.',
    nothing: 'Nothing scheduled',
    nothingHint: 'This screen has no content to play now. Assign a layout to it in the console.',
    expired: 'Service expired',
    expiredHint: "Renew this screen's licence in the console to play its content again.",
    contentError: 'Content problem',
    contentErrorHint: 'The content of this screen cannot be shown: {reason}',
    loading: 'Loading content…',
    status: 'Player status',
    device: 'Device',
    connection: 'Connection',
    online: 'Online',
    offline: 'Offline',
    lastHeartbeat: 'Last heartbeat',
    manifestVersion: 'Manifest version',
    pendingVersion: 'Next version (downloading)',
    cacheUse: 'Cache use',
    downloads: 'Downloads',
    playsPending: 'Plays not yet uploaded',
    commands: 'Last commands',
    never: 'never',
    none: 'none',
    close: 'Close (i)',
    alarmRaise: 'Alarm',
    alarmSending: 'Alarm raised: sending…',
    alarmSent: 'Alarm sent: help is on the way',
  },
  'zh-CN': {
    pairTitle: '配对此屏幕',
    pairHint: '请在 Marquee 控制台中添加设备并输入此配对码，或扫描二维码。',
    pairExpires: '配对码有效期至 {time}。',
    pairStarting: '正在获取配对码…',
    pairFailed: '无法连接服务器，{sec} 秒后重试。',
    nothing: '暂无排期内容',
    nothingHint: '此屏幕当前没有可播放的内容，请在控制台中为其指定布局。',
    expired: '服务已到期',
    expiredHint: '请在控制台中为此屏幕续费授权，续费后将恢复播放。',
    contentError: '内容异常',
    contentErrorHint: '此屏幕的内容无法显示：{reason}',
    loading: '正在加载内容…',
    status: '播放器状态',
    device: '设备',
    connection: '连接',
    online: '在线',
    offline: '离线',
    lastHeartbeat: '最近心跳',
    manifestVersion: '节目单版本',
    pendingVersion: '下一版本（下载中）',
    cacheUse: '缓存占用',
    downloads: '下载进度',
    playsPending: '待上传的播放记录',
    commands: '最近指令',
    never: '从未',
    none: '无',
    close: '关闭 (i)',
    alarmRaise: '一键报警',
    alarmSending: '已报警，正在发送…',
    alarmSent: '报警已发送，请等待救助',
  },
  ja: {
    pairTitle: 'この画面をペアリング',
    pairHint: 'Marquee コンソールでデバイスを追加し、このコードを入力するか QR コードを読み取ってください。',
    pairExpires: 'コードの有効期限は {time} です。',
    pairStarting: 'ペアリングコードを取得しています…',
    pairFailed: 'サーバーに接続できません。{sec} 秒後に再試行します。',
    nothing: '放映予定のコンテンツはありません',
    nothingHint: 'この画面で再生できるコンテンツがありません。コンソールでレイアウトを割り当ててください。',
    expired: 'サービスの期限が切れました',
    expiredHint: 'コンソールでこの画面のライセンスを更新すると、再生が再開されます。',
    contentError: 'コンテンツの問題',
    contentErrorHint: 'この画面のコンテンツを表示できません：{reason}',
    loading: 'コンテンツを読み込んでいます…',
    status: 'プレーヤーの状態',
    device: 'デバイス',
    connection: '接続',
    online: 'オンライン',
    offline: 'オフライン',
    lastHeartbeat: '最後のハートビート',
    manifestVersion: 'マニフェストのバージョン',
    pendingVersion: '次のバージョン（ダウンロード中）',
    cacheUse: 'キャッシュ使用量',
    downloads: 'ダウンロード',
    playsPending: '未送信の再生記録',
    commands: '最近のコマンド',
    never: 'なし',
    none: 'なし',
    close: '閉じる (i)',
    alarmRaise: '緊急通報',
    alarmSending: '通報しました。送信中…',
    alarmSent: '通報を送信しました。対応をお待ちください',
  },
} as const;

export type MessageKey = keyof (typeof messages)['en-US'];
export type Locale = keyof typeof messages;

export function pickLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const lower = language.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('ja')) return 'ja';
    if (lower.startsWith('en')) return 'en-US';
  }
  return 'en-US';
}

export const locale: Locale = typeof navigator === 'undefined' ? 'en-US' : pickLocale(navigator.languages ?? []);

export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return messages[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}

export { messages };
