import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { BlasterForm } from './blaster-form';

/** /blaster (admin and dev, §2 route table): the blaster form, sending from any connected account. */
export function BlasterPage() {
  return (
    <>
      <PageBreadcrumb title="Blaster" />
      <Card className="max-w-3xl">
        <BlasterForm anySender />
      </Card>
    </>
  );
}
