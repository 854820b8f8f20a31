import { SectionOverview } from '../home/SectionOverview';

/** /operate: the operations section's overview (its figures and pages). */
export default function OperatePage() {
  return <SectionOverview root="/operate" name="operate" />;
}
