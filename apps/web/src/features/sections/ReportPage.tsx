import { SectionOverview } from '../home/SectionOverview';

/** /report: the reports section's overview (its trends and report pages). */
export default function ReportPage() {
  return <SectionOverview root="/report" name="report" />;
}
