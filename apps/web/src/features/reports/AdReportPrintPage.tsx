import { AdReportDetail } from './AdReportDetailPage';

/**
 * /adReport?id=: the read-only ad report an advertiser opens (no menu title): the same report
 * without export or edit controls, laid out for printing. Login is required as for every
 * shell page; the server answers only ads of the caller's scope (NOT_FOUND otherwise).
 */
export default function AdReportPrintPage() {
  return <AdReportDetail readOnly />;
}
