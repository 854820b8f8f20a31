import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The ads module's messages in the three languages. */
export const AdText = {
  orderFrameLocked: text(
    '该广告来自广告位订单：投放期、投放屏幕、时段、播放策略、播放次数和广告位由订单决定，不能修改；可修改名称和素材',
    "This ad comes from an airtime order: its period, screens, time periods, strategy, plays and slot are the order's and cannot change; its name and content can",
    'この広告は広告枠の注文から作成されました。掲載期間・デバイス・時間帯・再生方式・再生回数・広告枠は注文で決まるため変更できません。名前と素材は変更できます',
  ),
  notFound: text(
    '广告不存在或无权访问',
    'The ad does not exist or is not accessible',
    '広告が存在しないか、アクセスできません',
  ),
  notManaged: text(
    '只有广告的创建者或其部门的管理者可以修改该广告',
    'Only the owner of the ad or a manager of its department can change it',
    'この広告を変更できるのは、作成者またはその部署の管理者だけです',
  ),
  alreadyDecided: text(
    '该广告的本轮审核已有结论，审核结果不可更改',
    'This review of the ad has already been decided; decisions cannot be changed',
    'この広告の今回の審査は既に結論が出ています。審査結果は変更できません',
  ),
  notPendingSecond: text(
    '该广告当前不在待复审状态',
    'This ad is not waiting for a second audit',
    'この広告は二次審査待ちではありません',
  ),
  roundChanged: text(
    '广告在您打开后已被修改，请刷新后重新审核',
    'The ad was edited since you opened it. Refresh and review it again',
    'この広告は開いた後に編集されました。更新してから再度審査してください',
  ),
  materialNotFound: text(
    '所选素材不存在或无权使用',
    'A selected material does not exist or is not available to you',
    '選択した素材が存在しないか、利用できません',
  ),
  layoutNotFound: text(
    '所选布局不存在或无权使用',
    'The selected layout does not exist or is not available to you',
    '選択したレイアウトが存在しないか、利用できません',
  ),
  planNotFound: text(
    '推广计划不存在或无权访问',
    'The promotion plan does not exist or is not accessible',
    'プロモーションプランが存在しないか、アクセスできません',
  ),
  planNotManaged: text(
    '只有推广计划的创建者或其部门的管理者可以修改该计划',
    'Only the owner of the promotion plan or a manager of its department can change it',
    'このプロモーションプランを変更できるのは、作成者またはその部署の管理者だけです',
  ),
  defaultPlanName: text('默认推广计划', 'Default plan', 'デフォルトプラン'),
};
