import type { FastifyInstance } from 'fastify';
import { consoleCaller, demoAccount } from './consoleCall.js';

/**
 * The demo help documents (issue 31): on the first start the platform operator writes a few
 * true guides to the product in zh-CN, en-US and ja and publishes them, through the console's
 * own calls (seed/consoleCall.ts), so /help/helpFile is not empty for a visitor.
 */
type Version = { language: 'zh-CN' | 'en-US' | 'ja'; title: string; body: string };

const CATEGORIES: { names: { 'zh-CN': string; 'en-US': string; ja: string }; docs: Version[][] }[] = [
  {
    names: { 'zh-CN': '快速入门', 'en-US': 'Getting started', ja: 'はじめに' },
    docs: [
      [
        {
          language: 'zh-CN',
          title: '让一块屏幕上线',
          body: '<p>任何带浏览器的屏幕都可以成为播放设备：</p><ol><li>在屏幕的浏览器中打开平台的播放器地址（见「帮助中心 › 下载中心」，也可扫描那里的二维码）。</li><li>屏幕显示一个配对码。</li><li>在「设备管理」中点击添加设备，输入配对码并选择所属部门。</li></ol><p>几秒钟后设备显示为在线，即可接收节目、远程控制和截图。播放器会缓存节目，断网时继续播放，恢复联网后补传播放记录。</p>',
        },
        {
          language: 'en-US',
          title: 'Bring a screen online',
          body: '<p>Any screen with a browser can become a player:</p><ol><li>Open the platform’s player address in the screen’s browser (see Help › Downloads, or scan the QR code there).</li><li>The screen shows a pairing code.</li><li>In Devices, choose Add device, enter the code and pick the department the screen belongs to.</li></ol><p>A few seconds later the device is online: it takes programmes, remote control and screenshots. The player caches what it plays, keeps playing when the network drops and sends its proof of play once it is back.</p>',
        },
        {
          language: 'ja',
          title: '画面をオンラインにする',
          body: '<p>ブラウザのある画面なら、どれでもプレーヤーになります。</p><ol><li>画面のブラウザでプラットフォームのプレーヤーのアドレスを開きます（「ヘルプ › ダウンロード」に記載。そこにある QR コードも使えます）。</li><li>画面にペアリングコードが表示されます。</li><li>「デバイス管理」で「デバイスを追加」を選び、コードを入力して所属部署を選びます。</li></ol><p>数秒後にデバイスがオンラインになり、番組の受信、リモート操作、スクリーンショットが使えます。プレーヤーは番組をキャッシュし、ネットワークが切れても再生を続け、復旧後に再生記録を送ります。</p>',
        },
      ],
      [
        {
          language: 'zh-CN',
          title: '从广告到屏幕：投放流程',
          body: '<p>一条广告从制作到播出经过以下步骤：</p><ol><li><strong>素材</strong>：在素材库上传图片和视频。</li><li><strong>广告</strong>：选择布局，把素材放入各区域，设置播放时段。</li><li><strong>审核</strong>：提交后由有审核权限的账号通过或驳回。</li><li><strong>投放</strong>：把通过审核的广告排期到设备或设备分组，设备会自动下载并按计划播放。</li></ol><p>屏幕每播放一次都会回传播放记录，可在「报表」中查看广告和设备的播放统计。</p>',
        },
        {
          language: 'en-US',
          title: 'From ad to screen: how publishing works',
          body: '<p>An ad goes through these steps from making to airing:</p><ol><li><strong>Materials</strong>: upload pictures and videos to the material library.</li><li><strong>Ad</strong>: choose a layout, place materials in its regions and set when it plays.</li><li><strong>Review</strong>: once submitted, an account allowed to review passes or rejects it.</li><li><strong>Schedule</strong>: schedule the passed ad to devices or device groups; they download it and play it as planned.</li></ol><p>Every play comes back as proof of play: see the plays of ads and devices under Reports.</p>',
        },
      ],
    ],
  },
  {
    names: { 'zh-CN': '帮助与反馈', 'en-US': 'Help and feedback', ja: 'ヘルプとフィードバック' },
    docs: [
      [
        {
          language: 'zh-CN',
          title: '如何提交意见反馈',
          body: '<p>遇到问题或有改进建议时：</p><ol><li>打开「个人中心 › 帮助与反馈」，点击「提交反馈」。</li><li>选择类型（问题、建议或其他），用 500 字以内描述情况，最多附 5 张截图。</li><li>平台回复后，您会收到站内信，并可在「帮助与反馈」中查看回复。</li></ol><p>问题解决后可以自行关闭反馈。</p>',
        },
        {
          language: 'en-US',
          title: 'How to send feedback',
          body: '<p>When something goes wrong or you have an idea:</p><ol><li>Open My account › Help and feedback and choose Submit feedback.</li><li>Pick a type (problem, suggestion or other), describe it in up to 500 characters and attach up to 5 screenshots.</li><li>When the platform replies you get a station letter, and the reply is in Help and feedback.</li></ol><p>Close the feedback yourself once it is settled.</p>',
        },
        {
          language: 'ja',
          title: 'フィードバックの送り方',
          body: '<p>問題が起きたときや改善のご提案があるときは：</p><ol><li>「マイページ › ヘルプとフィードバック」を開き、「フィードバックを送信」を選びます。</li><li>種類（問題・提案・その他）を選び、500 文字以内で内容を書き、スクリーンショットを 5 枚まで添付します。</li><li>プラットフォームが返信するとサイト内メッセージが届き、「ヘルプとフィードバック」で返信を確認できます。</li></ol><p>解決したら、フィードバックはご自身でクローズできます。</p>',
        },
      ],
    ],
  },
];

export async function seedDemoHelp(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'demo-help' });
  try {
    const platform = await consoleCaller(app, await demoAccount(app, 'operator'), 'marquee-demo-help');
    let docs = 0;
    for (const [i, category] of CATEGORIES.entries()) {
      const { id: categoryId } = await platform('helpCategorySave', { names: category.names, sort: i });
      for (const [j, versions] of category.docs.entries()) {
        const { id } = await platform('helpSave', { categoryId, sort: j, versions });
        await platform('helpPublish', { id, published: true });
        docs++;
      }
    }
    log.info({ docs }, 'demo help documents seeded');
  } catch (error) {
    log.warn({ err: error }, 'demo help documents not seeded');
  }
}
