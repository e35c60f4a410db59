// The admin dashboard island (/admin). Owned by the admin-review work; the badge, quiz
// and coupon tabs live in views/components/admin/ and are owned by the catalogue-admin work.
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/tabs';
import { ApplicationsTab } from '../components/admin/ApplicationsTab';
import { UsersTab } from '../components/admin/UsersTab';
import { BadgesTab } from '../components/admin/BadgesTab';
import { QuizTab } from '../components/admin/QuizTab';
import { CouponsTab } from '../components/admin/CouponsTab';
import { Container } from '../components/ui';

export type AdminDashboardProps = { adminName: string };

export default function AdminDashboard({ adminName }: AdminDashboardProps) {
  return (
    <Container className="py-8">
      <h1 className="text-2xl font-bold">Welcome back, {adminName}</h1>
      <Tabs defaultValue="applications" className="mt-6">
        <TabsList>
          <TabsTrigger value="applications">Applications</TabsTrigger>
          <TabsTrigger value="users">User Management</TabsTrigger>
          <TabsTrigger value="badges">Badge Management</TabsTrigger>
          <TabsTrigger value="quizzes">Quiz Management</TabsTrigger>
          <TabsTrigger value="coupons">Coupons</TabsTrigger>
        </TabsList>
        <TabsContent value="applications"><ApplicationsTab /></TabsContent>
        <TabsContent value="users"><UsersTab /></TabsContent>
        <TabsContent value="badges"><BadgesTab /></TabsContent>
        <TabsContent value="quizzes"><QuizTab /></TabsContent>
        <TabsContent value="coupons"><CouponsTab /></TabsContent>
      </Tabs>
    </Container>
  );
}
