import { ScanLoginPage } from './ScanLoginPage';

/** /dingTalkLogin: DingTalk scan login on its own page. */
export default function DingTalkLoginPage() {
  return <ScanLoginPage provider="dingtalk" />;
}
