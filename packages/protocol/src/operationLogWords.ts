import type { RefTypeValue } from './refTypes.js';

/**
 * The operation log's words (issue 25): every module, action and target type a log row can
 * carry, in zh-CN, en-US and ja. One source for the log page (apps/web, features/operationLog)
 * and the log's Excel export (apps/server, modules/operationLog), so neither shows an internal
 * code. A server test (operationLogWords.test.ts) fails on a code written to the log without
 * its words here.
 */
type Words = { readonly 'zh-CN': string; readonly 'en-US': string; readonly ja: string };

const MODULE_WORDS = {
  auth: { 'zh-CN': '登录', 'en-US': 'Sign-in', ja: 'ログイン' },
  dept: { 'zh-CN': '部门', 'en-US': 'Departments', ja: '部署' },
  notice: { 'zh-CN': '公告', 'en-US': 'Notices', ja: 'お知らせ' },
  operationLog: { 'zh-CN': '操作日志', 'en-US': 'Operation log', ja: '操作ログ' },
  advertiser: { 'zh-CN': '广告主', 'en-US': 'Advertisers', ja: '広告主' },
  enterprise: { 'zh-CN': '企业', 'en-US': 'Enterprises', ja: '企業' },
  account: { 'zh-CN': '账号', 'en-US': 'Accounts', ja: 'アカウント' },
  role: { 'zh-CN': '角色', 'en-US': 'Roles', ja: 'ロール' },
  sharing: { 'zh-CN': '数据权限分配', 'en-US': 'Data permissions', ja: 'データ権限の割り当て' },
  template: { 'zh-CN': '模板', 'en-US': 'Templates', ja: 'テンプレート' },
  profile: { 'zh-CN': '个人中心', 'en-US': 'Personal centre', ja: '個人センター' },
  verification: { 'zh-CN': '验证码', 'en-US': 'Verification codes', ja: '認証コード' },
  oauth: { 'zh-CN': '第三方登录', 'en-US': 'Third-party login', ja: '外部ログイン' },
  registration: { 'zh-CN': '注册', 'en-US': 'Registration', ja: '登録' },
  device: { 'zh-CN': '设备管理', 'en-US': 'Devices', ja: 'デバイス管理' },
  deviceGroup: { 'zh-CN': '设备分组', 'en-US': 'Device groups', ja: 'デバイスグループ' },
  deviceTag: { 'zh-CN': '设备标签', 'en-US': 'Device tags', ja: 'デバイスタグ' },
  ad: { 'zh-CN': '广告', 'en-US': 'Ads', ja: '広告' },
  material: { 'zh-CN': '素材', 'en-US': 'Materials', ja: '素材' },
  poster: { 'zh-CN': '海报', 'en-US': 'Posters', ja: 'ポスター' },
  report: { 'zh-CN': '数据报表', 'en-US': 'Reports', ja: 'レポート' },
  store: { 'zh-CN': '门店', 'en-US': 'Stores', ja: '店舗' },
  strategy: { 'zh-CN': '策略', 'en-US': 'Strategies', ja: 'ポリシー' },
  finance: { 'zh-CN': '财务中心', 'en-US': 'Finance', ja: '財務センター' },
  payments: { 'zh-CN': '支付', 'en-US': 'Payments', ja: '支払い' },
  market: { 'zh-CN': '应用市场', 'en-US': 'Market', ja: 'マーケット' },
  flow: { 'zh-CN': '物联网卡', 'en-US': 'IoT cards', ja: 'IoT カード' },
  sales: { 'zh-CN': '广告位售卖', 'en-US': 'Airtime sales', ja: '広告枠の販売' },
  rtb: { 'zh-CN': '程序化竞价', 'en-US': 'Programmatic airtime', ja: 'プログラマティック取引' },
  warnings: { 'zh-CN': '预警中心', 'en-US': 'Warning centre', ja: '警告センター' },
  alarm: { 'zh-CN': '一键报警', 'en-US': 'One-key alarms', ja: 'ワンキーアラーム' },
  monitoring: { 'zh-CN': '第三方监测', 'en-US': 'Third-party monitoring', ja: '第三者モニタリング' },
  feedback: { 'zh-CN': '意见反馈', 'en-US': 'Feedback', ja: 'フィードバック' },
} as const satisfies Record<string, Words>;

const ACTION_WORDS = {
  login: { 'zh-CN': '登录', 'en-US': 'Log in', ja: 'ログイン' },
  register: { 'zh-CN': '注册企业', 'en-US': 'Register enterprise', ja: '企業の登録' },
  logout: { 'zh-CN': '退出登录', 'en-US': 'Log out', ja: 'ログアウト' },
  change: { 'zh-CN': '切换', 'en-US': 'Switch', ja: '切り替え' },
  changeEnterprise: { 'zh-CN': '切换企业', 'en-US': 'Switch enterprise', ja: '企業の切り替え' },
  add: { 'zh-CN': '新增', 'en-US': 'Add', ja: '追加' },
  create: { 'zh-CN': '创建', 'en-US': 'Create', ja: '作成' },
  update: { 'zh-CN': '编辑', 'en-US': 'Edit', ja: '編集' },
  delete: { 'zh-CN': '删除', 'en-US': 'Delete', ja: '削除' },
  copy: { 'zh-CN': '复制', 'en-US': 'Copy', ja: 'コピー' },
  rename: { 'zh-CN': '重命名', 'en-US': 'Rename', ja: '名前の変更' },
  move: { 'zh-CN': '移动', 'en-US': 'Move', ja: '移動' },
  pause: { 'zh-CN': '暂停', 'en-US': 'Pause', ja: '停止' },
  enable: { 'zh-CN': '启用', 'en-US': 'Enable', ja: '有効化' },
  disable: { 'zh-CN': '停用', 'en-US': 'Disable', ja: '無効化' },
  assign: { 'zh-CN': '分配', 'en-US': 'Assign', ja: '割り当て' },
  unassign: { 'zh-CN': '取消分配', 'en-US': 'Unassign', ja: '割り当て解除' },
  export: { 'zh-CN': '导出', 'en-US': 'Export', ja: 'エクスポート' },
  import: { 'zh-CN': '导入', 'en-US': 'Import', ja: 'インポート' },
  monitorApply: { 'zh-CN': '监播申请', 'en-US': 'Monitor application', ja: 'モニター申請' },
  'monitorApply.agree': {
    'zh-CN': '同意监播申请',
    'en-US': 'Agree to a monitor application',
    ja: 'モニター申請に同意',
  },
  'monitorApply.refuse': { 'zh-CN': '拒绝监播申请', 'en-US': 'Refuse a monitor application', ja: 'モニター申請を拒否' },
  refresh: { 'zh-CN': '数据权限分配', 'en-US': 'Share', ja: '共有' },
  allocate: { 'zh-CN': '分配数据权限', 'en-US': 'Grant data permissions', ja: 'データ権限の割り当て' },
  recycle: { 'zh-CN': '收回数据权限', 'en-US': 'Revoke data permissions', ja: 'データ権限の取り消し' },
  'import.allocate': {
    'zh-CN': '按表格分配数据权限',
    'en-US': 'Grant data permissions from a sheet',
    ja: 'シートからデータ権限を割り当て',
  },
  'import.recycle': {
    'zh-CN': '按表格收回数据权限',
    'en-US': 'Revoke data permissions from a sheet',
    ja: 'シートからデータ権限を取り消し',
  },
  resetPassword: { 'zh-CN': '重置密码', 'en-US': 'Reset password', ja: 'パスワードリセット' },
  changePassword: { 'zh-CN': '修改密码', 'en-US': 'Change password', ja: 'パスワードの変更' },
  bind: { 'zh-CN': '绑定', 'en-US': 'Bind', ja: '連携' },
  unbind: { 'zh-CN': '解绑', 'en-US': 'Unbind', ja: '連携解除' },
  bindPhone: { 'zh-CN': '绑定手机号', 'en-US': 'Bind phone number', ja: '電話番号の登録' },
  invite: { 'zh-CN': '邀请', 'en-US': 'Invite', ja: '招待' },
  acceptInvitation: { 'zh-CN': '接受邀请', 'en-US': 'Accept invitation', ja: '招待の承諾' },
  batchDepts: { 'zh-CN': '批量设置部门', 'en-US': 'Set departments in bulk', ja: '部署の一括設定' },
  batchRoles: { 'zh-CN': '批量设置角色', 'en-US': 'Set roles in bulk', ja: 'ロールの一括設定' },
  activate: { 'zh-CN': '激活', 'en-US': 'Activate', ja: 'アクティベート' },
  command: { 'zh-CN': '发送指令', 'en-US': 'Send command', ja: 'コマンド送信' },
  apply: { 'zh-CN': '应用', 'en-US': 'Apply', ja: '適用' },
  screenshot: { 'zh-CN': '截屏', 'en-US': 'Screenshot', ja: 'スクリーンショット' },
  deleteScreenshot: { 'zh-CN': '删除截屏', 'en-US': 'Delete screenshot', ja: 'スクリーンショットの削除' },
  screenshotSettings: {
    'zh-CN': '定时截屏设置',
    'en-US': 'Timed screenshot settings',
    ja: '定期スクリーンショットの設定',
  },
  assignLayout: { 'zh-CN': '指定布局', 'en-US': 'Assign layout', ja: 'レイアウトの割り当て' },
  offlinePackage: { 'zh-CN': '导出离线包', 'en-US': 'Export offline package', ja: 'オフラインパッケージの書き出し' },
  watermark: { 'zh-CN': '设置水印', 'en-US': 'Set watermark', ja: '透かしの設定' },
  setLocation: { 'zh-CN': '设置位置', 'en-US': 'Set location', ja: '位置の設定' },
  playlistSort: { 'zh-CN': '播放列表排序', 'en-US': 'Sort playlist', ja: 'プレイリストの並べ替え' },
  broadcast: { 'zh-CN': '下发', 'en-US': 'Send to devices', ja: '配信' },
  repush: { 'zh-CN': '重新下发', 'en-US': 'Send again', ja: '再配信' },
  spliceCreate: { 'zh-CN': '新建拼接屏', 'en-US': 'Create splicing screen', ja: 'スプライシングスクリーンの作成' },
  spliceUpdate: { 'zh-CN': '编辑拼接屏', 'en-US': 'Edit splicing screen', ja: 'スプライシングスクリーンの編集' },
  spliceDelete: { 'zh-CN': '删除拼接屏', 'en-US': 'Delete splicing screen', ja: 'スプライシングスクリーンの削除' },
  addDevices: { 'zh-CN': '添加设备', 'en-US': 'Add devices', ja: 'デバイスの追加' },
  removeDevices: { 'zh-CN': '移除设备', 'en-US': 'Remove devices', ja: 'デバイスの削除' },
  tagDevices: { 'zh-CN': '为设备添加标签', 'en-US': 'Tag devices', ja: 'デバイスにタグを付ける' },
  untagDevices: { 'zh-CN': '移除设备标签', 'en-US': 'Untag devices', ja: 'デバイスのタグを外す' },
  assignDevices: { 'zh-CN': '分配设备', 'en-US': 'Assign devices', ja: 'デバイスの割り当て' },
  uploadApply: { 'zh-CN': '申请上传', 'en-US': 'Request upload', ja: 'アップロードの申請' },
  uploadVerify: { 'zh-CN': '上传完成', 'en-US': 'Upload finished', ja: 'アップロードの完了' },
  mediaAdd: { 'zh-CN': '添加网页或直播', 'en-US': 'Add web page or live stream', ja: 'Web ページ・ライブ配信の追加' },
  setCategory: { 'zh-CN': '设置分类', 'en-US': 'Set category', ja: 'カテゴリの設定' },
  folderCreate: { 'zh-CN': '新建文件夹', 'en-US': 'Create folder', ja: 'フォルダの作成' },
  folderRename: { 'zh-CN': '重命名文件夹', 'en-US': 'Rename folder', ja: 'フォルダ名の変更' },
  folderMove: { 'zh-CN': '移动文件夹', 'en-US': 'Move folder', ja: 'フォルダの移動' },
  folderDelete: { 'zh-CN': '删除文件夹', 'en-US': 'Delete folder', ja: 'フォルダの削除' },
  categoryCreate: { 'zh-CN': '新建分类', 'en-US': 'Create category', ja: 'カテゴリの作成' },
  categoryUpdate: { 'zh-CN': '编辑分类', 'en-US': 'Edit category', ja: 'カテゴリの編集' },
  categoryDelete: { 'zh-CN': '删除分类', 'en-US': 'Delete category', ja: 'カテゴリの削除' },
  createCategory: { 'zh-CN': '新建分类', 'en-US': 'Create category', ja: 'カテゴリの作成' },
  updateCategory: { 'zh-CN': '编辑分类', 'en-US': 'Edit category', ja: 'カテゴリの編集' },
  deleteCategory: { 'zh-CN': '删除分类', 'en-US': 'Delete category', ja: 'カテゴリの削除' },
  auditPass: { 'zh-CN': '审核通过', 'en-US': 'Review passed', ja: '審査承認' },
  auditFail: { 'zh-CN': '审核驳回', 'en-US': 'Review rejected', ja: '審査却下' },
  secondAuditPass: { 'zh-CN': '复审通过', 'en-US': 'Second review passed', ja: '二次審査承認' },
  secondAuditFail: { 'zh-CN': '复审驳回', 'en-US': 'Second review rejected', ja: '二次審査却下' },
  planAdd: { 'zh-CN': '新增推广计划', 'en-US': 'Add promotion plan', ja: 'プロモーション計画の追加' },
  planUpdate: { 'zh-CN': '编辑推广计划', 'en-US': 'Edit promotion plan', ja: 'プロモーション計画の編集' },
  planDelete: { 'zh-CN': '删除推广计划', 'en-US': 'Delete promotion plan', ja: 'プロモーション計画の削除' },
  settings: { 'zh-CN': '设置', 'en-US': 'Settings', ja: '設定' },
  templateSave: { 'zh-CN': '保存模板', 'en-US': 'Save template', ja: 'テンプレートの保存' },
  templateUpdate: { 'zh-CN': '编辑模板', 'en-US': 'Edit template', ja: 'テンプレートの編集' },
  templateCopy: { 'zh-CN': '复制模板', 'en-US': 'Copy template', ja: 'テンプレートのコピー' },
  templateDelete: { 'zh-CN': '删除模板', 'en-US': 'Delete template', ja: 'テンプレートの削除' },
  imageApply: {
    'zh-CN': '申请上传海报图片',
    'en-US': 'Request poster image upload',
    ja: 'ポスター画像のアップロード申請',
  },
  make: { 'zh-CN': '生成海报', 'en-US': 'Make poster', ja: 'ポスターの作成' },
  setLowBalance: { 'zh-CN': '设置余额提醒', 'en-US': 'Set low-balance alert', ja: '残高アラートの設定' },
  invoiceRequest: { 'zh-CN': '申请发票', 'en-US': 'Request invoice', ja: 'インボイスの申請' },
  invoiceIssue: { 'zh-CN': '开具发票', 'en-US': 'Issue invoice', ja: 'インボイスの発行' },
  invoiceRefuse: { 'zh-CN': '拒绝开票', 'en-US': 'Refuse invoice', ja: 'インボイスの発行を拒否' },
  recharge: { 'zh-CN': '充值', 'en-US': 'Recharge', ja: 'チャージ' },
  billCreate: { 'zh-CN': '创建账单', 'en-US': 'Create bill', ja: '請求の作成' },
  payBalance: { 'zh-CN': '余额支付', 'en-US': 'Pay from balance', ja: '残高で支払い' },
  payStart: { 'zh-CN': '发起在线支付', 'en-US': 'Start online payment', ja: 'オンライン決済の開始' },
  payQuery: { 'zh-CN': '查询支付结果', 'en-US': 'Check payment result', ja: '決済結果の照会' },
  close: { 'zh-CN': '关闭订单', 'en-US': 'Close order', ja: '注文のクローズ' },
  voucherApply: {
    'zh-CN': '申请上传转账凭证',
    'en-US': 'Request transfer voucher upload',
    ja: '振込証憑のアップロード申請',
  },
  offlineSubmit: { 'zh-CN': '提交线下支付', 'en-US': 'Submit offline payment', ja: 'オフライン支払いの提出' },
  offlineConfirm: { 'zh-CN': '确认线下支付', 'en-US': 'Confirm offline payment', ja: 'オフライン支払いの確認' },
  offlineReject: { 'zh-CN': '驳回线下支付', 'en-US': 'Reject offline payment', ja: 'オフライン支払いの却下' },
  productAdd: { 'zh-CN': '新增商品', 'en-US': 'Add product', ja: '商品の追加' },
  productUpdate: { 'zh-CN': '编辑商品', 'en-US': 'Edit product', ja: '商品の編集' },
  productOnSale: { 'zh-CN': '上架商品', 'en-US': 'Put product on sale', ja: '商品の販売開始' },
  productOffShelf: { 'zh-CN': '下架商品', 'en-US': 'Take product off shelf', ja: '商品の販売停止' },
  orderCreate: { 'zh-CN': '下单', 'en-US': 'Place order', ja: '注文' },
  orderCancel: { 'zh-CN': '取消订单', 'en-US': 'Cancel order', ja: '注文のキャンセル' },
  orderMaterials: { 'zh-CN': '提交订单素材', 'en-US': 'Give order materials', ja: '注文の素材の提出' },
  autoRenewOn: { 'zh-CN': '开启自动续费', 'en-US': 'Turn auto-renewal on', ja: '自動更新をオン' },
  autoRenewOff: { 'zh-CN': '关闭自动续费', 'en-US': 'Turn auto-renewal off', ja: '自動更新をオフ' },
  test: { 'zh-CN': '转为可测试', 'en-US': 'Make testable', ja: 'テスト可能にする' },
  prepare: { 'zh-CN': '转为待激活', 'en-US': 'Make ready to activate', ja: 'アクティベート待ちにする' },
  suspend: { 'zh-CN': '停机', 'en-US': 'Suspend', ja: '停止' },
  resume: { 'zh-CN': '复机', 'en-US': 'Resume', ja: '再開' },
  cancel: { 'zh-CN': '注销', 'en-US': 'Cancel card', ja: '解約' },
  contractCreate: { 'zh-CN': '拟定合同', 'en-US': 'Draw up contract', ja: '契約書の作成' },
  contractSign: { 'zh-CN': '签署合同', 'en-US': 'Sign contract', ja: '契約書の署名' },
  contractSync: { 'zh-CN': '同步电子签章', 'en-US': 'Sync e-signature', ja: '電子署名の同期' },
  rtbOn: { 'zh-CN': '开启 RTB', 'en-US': 'Turn RTB on', ja: 'RTB をオン' },
  rtbOff: { 'zh-CN': '关闭 RTB', 'en-US': 'Turn RTB off', ja: 'RTB をオフ' },
  acknowledge: { 'zh-CN': '确认预警', 'en-US': 'Acknowledge', ja: '確認' },
  campaignPause: { 'zh-CN': '暂停活动', 'en-US': 'Pause campaign', ja: 'キャンペーンの一時停止' },
  campaignResume: { 'zh-CN': '恢复活动', 'en-US': 'Resume campaign', ja: 'キャンペーンの再開' },
  campaignEnd: { 'zh-CN': '结束活动', 'en-US': 'End campaign', ja: 'キャンペーンの終了' },
  settlementCompute: { 'zh-CN': '计算结算', 'en-US': 'Compute settlement', ja: '精算の計算' },
  settlementRemedy: { 'zh-CN': '选择补偿方式', 'en-US': 'Choose make-good', ja: '補填方法の選択' },
  settlementConfirm: { 'zh-CN': '确认结算', 'en-US': 'Confirm settlement', ja: '精算の確定' },
  alarmAcknowledge: { 'zh-CN': '确认报警', 'en-US': 'Acknowledge alarm', ja: 'アラームの確認' },
  alarmHandle: { 'zh-CN': '处理报警', 'en-US': 'Handle alarm', ja: 'アラームの対応' },
  alarmClose: { 'zh-CN': '关闭报警', 'en-US': 'Close alarm', ja: 'アラームのクローズ' },
  monitorApplySend: { 'zh-CN': '申请监测', 'en-US': 'Apply to monitor', ja: 'モニタリングの申請' },
  feedbackShotUpload: {
    'zh-CN': '上传反馈截图',
    'en-US': 'Upload feedback screenshot',
    ja: 'フィードバックのスクリーンショットをアップロード',
  },
  feedbackSubmit: { 'zh-CN': '提交反馈', 'en-US': 'Submit feedback', ja: 'フィードバックの送信' },
  feedbackReply: { 'zh-CN': '回复反馈', 'en-US': 'Reply to feedback', ja: 'フィードバックへの返信' },
  feedbackClose: { 'zh-CN': '关闭反馈', 'en-US': 'Close feedback', ja: 'フィードバックのクローズ' },
  monitorPlanCreate: { 'zh-CN': '创建监测计划', 'en-US': 'Create monitoring plan', ja: 'モニタリング計画の作成' },
  monitorTaskComplete: { 'zh-CN': '完成监测任务', 'en-US': 'Complete monitoring task', ja: 'モニタリングタスクの完了' },
  monitorTaskClose: { 'zh-CN': '关闭监测任务', 'en-US': 'Close monitoring task', ja: 'モニタリングタスクのクローズ' },
  monitorTaskView: { 'zh-CN': '查看监测任务', 'en-US': 'Open monitoring task', ja: 'モニタリングタスクを開く' },
  monitorPhotoUpload: {
    'zh-CN': '上传监测照片',
    'en-US': 'Upload monitoring photograph',
    ja: 'モニタリング写真のアップロード',
  },
  monitorPhotoVerify: { 'zh-CN': '核验监测照片', 'en-US': 'Check monitoring photograph', ja: 'モニタリング写真の確認' },
  monitorTaskReopen: { 'zh-CN': '重新打开监测任务', 'en-US': 'Reopen monitoring task', ja: 'モニタリングタスクの再開' },
} as const satisfies Record<string, Words>;

const TARGET_WORDS = {
  account: { 'zh-CN': '账号', 'en-US': 'Account', ja: 'アカウント' },
  department: { 'zh-CN': '部门', 'en-US': 'Department', ja: '部署' },
  notice: { 'zh-CN': '公告', 'en-US': 'Notice', ja: 'お知らせ' },
  monitor_application: { 'zh-CN': '监播申请', 'en-US': 'Monitor application', ja: 'モニター申請' },
  monitor_plan: { 'zh-CN': '监测计划', 'en-US': 'Monitoring plan', ja: 'モニタリング計画' },
  feedback: { 'zh-CN': '反馈', 'en-US': 'Feedback', ja: 'フィードバック' },
  monitor_task: { 'zh-CN': '监测任务', 'en-US': 'Monitoring task', ja: 'モニタリングタスク' },
  export: { 'zh-CN': '导出', 'en-US': 'Export', ja: 'エクスポート' },
  enterprise: { 'zh-CN': '企业', 'en-US': 'Enterprise', ja: '企業' },
  role: { 'zh-CN': '角色', 'en-US': 'Role', ja: 'ロール' },
  template: { 'zh-CN': '模板', 'en-US': 'Template', ja: 'テンプレート' },
  session: { 'zh-CN': '会话', 'en-US': 'Session', ja: 'セッション' },
  invitation: { 'zh-CN': '邀请', 'en-US': 'Invitation', ja: '招待' },
  device: { 'zh-CN': '设备', 'en-US': 'Device', ja: 'デバイス' },
  deviceGroup: { 'zh-CN': '设备分组', 'en-US': 'Device group', ja: 'デバイスグループ' },
  tag: { 'zh-CN': '标签', 'en-US': 'Tag', ja: 'タグ' },
  tagCategory: { 'zh-CN': '标签分类', 'en-US': 'Tag category', ja: 'タグカテゴリ' },
  screenshot: { 'zh-CN': '截屏', 'en-US': 'Screenshot', ja: 'スクリーンショット' },
  splice: { 'zh-CN': '拼接屏', 'en-US': 'Splicing screen', ja: 'スプライシングスクリーン' },
  store: { 'zh-CN': '门店', 'en-US': 'Store', ja: '店舗' },
  strategy: { 'zh-CN': '策略', 'en-US': 'Strategy', ja: 'ポリシー' },
  material: { 'zh-CN': '素材', 'en-US': 'Material', ja: '素材' },
  materialUpload: { 'zh-CN': '素材上传', 'en-US': 'Material upload', ja: '素材のアップロード' },
  materialFolder: { 'zh-CN': '素材文件夹', 'en-US': 'Material folder', ja: '素材フォルダ' },
  materialCategory: { 'zh-CN': '素材分类', 'en-US': 'Material category', ja: '素材カテゴリ' },
  ad: { 'zh-CN': '广告', 'en-US': 'Ad', ja: '広告' },
  adPlan: { 'zh-CN': '推广计划', 'en-US': 'Promotion plan', ja: 'プロモーション計画' },
  wallet: { 'zh-CN': '钱包', 'en-US': 'Wallet', ja: 'ウォレット' },
  invoice: { 'zh-CN': '发票', 'en-US': 'Invoice', ja: 'インボイス' },
  payOrder: { 'zh-CN': '支付订单', 'en-US': 'Payment order', ja: '支払い注文' },
  marketProduct: { 'zh-CN': '商品', 'en-US': 'Product', ja: '商品' },
  marketOrder: { 'zh-CN': '市场订单', 'en-US': 'Market order', ja: 'マーケットの注文' },
  marketItem: { 'zh-CN': '续费项目', 'en-US': 'Renewable item', ja: '更新対象' },
  iotCard: { 'zh-CN': '物联网卡', 'en-US': 'IoT card', ja: 'IoT カード' },
  salesOrder: { 'zh-CN': '广告位订单', 'en-US': 'Airtime order', ja: '広告枠の注文' },
  salesContract: { 'zh-CN': '广告位合同', 'en-US': 'Airtime contract', ja: '広告枠の契約書' },
  adSlot: { 'zh-CN': '广告位', 'en-US': 'Ad slot', ja: '広告枠' },
  salesGoods: { 'zh-CN': '广告位商品', 'en-US': 'Airtime goods', ja: '広告枠の商品' },
  priceContract: { 'zh-CN': '价格合同', 'en-US': 'Price contract', ja: '価格契約' },
  coupon: { 'zh-CN': '优惠券', 'en-US': 'Coupon', ja: 'クーポン' },
  salesSettings: { 'zh-CN': '售卖设置', 'en-US': 'Sales settings', ja: '販売設定' },
  rtbCampaign: { 'zh-CN': '竞价活动', 'en-US': 'RTB campaign', ja: 'RTB キャンペーン' },
  rtbDsp: { 'zh-CN': 'DSP', 'en-US': 'DSP', ja: 'DSP' },
  warning: { 'zh-CN': '预警', 'en-US': 'Warning', ja: '警告' },
  warningSettings: { 'zh-CN': '预警通知设置', 'en-US': 'Warning notifications', ja: '警告の通知設定' },
  alarmRegion: { 'zh-CN': '报警区域', 'en-US': 'Alarm region', ja: 'アラームエリア' },
  alarmEvent: { 'zh-CN': '报警事件', 'en-US': 'Alarm event', ja: 'アラームイベント' },
  'ref:1': { 'zh-CN': '设备', 'en-US': 'Device', ja: 'デバイス' },
  'ref:2': { 'zh-CN': '设备分组', 'en-US': 'Device group', ja: 'デバイスグループ' },
  'ref:3': { 'zh-CN': '素材', 'en-US': 'Material', ja: '素材' },
  'ref:4': { 'zh-CN': '素材文件夹', 'en-US': 'Material folder', ja: '素材フォルダ' },
  'ref:5': { 'zh-CN': '广告', 'en-US': 'Ad', ja: '広告' },
  'ref:6': { 'zh-CN': '海报模板', 'en-US': 'Poster template', ja: 'ポスターテンプレート' },
  'ref:9': { 'zh-CN': '模板', 'en-US': 'Template', ja: 'テンプレート' },
} as const satisfies Record<string, Words>;

/** A module of the log (the domain of the change). */
export type OperationLogModule = keyof typeof MODULE_WORDS;
/** An action of the log. */
export type OperationLogAction = keyof typeof ACTION_WORDS;
/** The kind of object a log row names ('ref:<n>': an object of a sharing ref-type). */
export type OperationLogTarget = Exclude<keyof typeof TARGET_WORDS, `ref:${string}`> | `ref:${RefTypeValue}`;

export const OPERATION_LOG_WORDS = {
  module: MODULE_WORDS as Readonly<Record<OperationLogModule, Words>>,
  action: ACTION_WORDS as Readonly<Record<OperationLogAction, Words>>,
  target: TARGET_WORDS as Readonly<Record<OperationLogTarget, Words>>,
};

export type OperationLogWordKind = keyof typeof OPERATION_LOG_WORDS;

/** A language of the words: the given one when it has them, zh-CN otherwise. */
function wordsLanguage(language: string): keyof Words {
  return language === 'en-US' || language === 'ja' ? language : 'zh-CN';
}

/**
 * The word of a module, action or target code in `language`. A code without words (a row
 * written by an older version) reads as its words split from camelCase, never as nothing.
 */
export function operationLogWord(kind: OperationLogWordKind, code: string, language: string): string {
  const words = (OPERATION_LOG_WORDS[kind] as Readonly<Record<string, Words>>)[code];
  if (words) return words[wordsLanguage(language)];
  return readableLogCode(code);
}

/** 'deviceGroup' -> 'Device group': the readable form of a code that has no words. */
export function readableLogCode(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.:-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : code;
}
