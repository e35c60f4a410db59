// The texts of the four policy pages (shipping, terms, refunds, privacy); PolicyPage renders them.
import FileText from 'lucide-react/icons/file-text';
import Receipt from 'lucide-react/icons/receipt';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Truck from 'lucide-react/icons/truck';
import { type ReactNode } from 'react';

export type Kind = 'shipping' | 'terms' | 'refunds' | 'privacy';

export type Section = { title: string; body: ReactNode };

export type Policy = {
  title: string;
  href: string;
  icon: ReactNode;
  intro: string;
  glance?: string[];
  sections: (email: ReactNode) => Section[];
};

export const UPDATED = 'January 6, 2025';

export const P = ({ children }: { children: ReactNode }) => <p>{children}</p>;

export const UL = ({ items }: { items: ReactNode[] }) => (
  <ul>
    {items.map((it, i) => (
      <li key={i}>{it}</li>
    ))}
  </ul>
);

export const A = ({ href, children }: { href: string; children: ReactNode }) => <a href={href}>{children}</a>;

export const policies: Record<Kind, Policy> = {
  shipping: {
    title: 'Shipping Policy',
    href: '/shippingpolicy',
    icon: <Truck />,
    intro: 'Meritmark badges are digital credentials. There is nothing to ship: your badge is delivered to your account and can be shared online.',
    glance: [
      'Digital delivery only: no physical items and no shipping fees.',
      'Badges are delivered to your profile after an administrator approves your application.',
      'If a badge is missing within 24 hours of approval, contact support.',
    ],
    sections: (email) => [
      {
        title: 'Digital delivery',
        body: (
          <P>
            Everything Meritmark sells is delivered electronically. When a badge is granted it appears under Earned Badges on your
            profile, together with its verification ID and a public verification link. We do not send physical certificates, cards
            or merchandise, and no shipping or handling fees are charged.
          </P>
        ),
      },
      {
        title: 'When your badge is delivered',
        body: (
          <>
            <P>
              After your payment is confirmed, your application is reviewed by our team, usually within 2-3 business days. As soon as
              it is approved, the badge is granted to your account and we send an e-mail notification to the address on your
              account.
            </P>
            <P>Badges that need no payment, such as badges granted with a free-grant coupon, follow the same review and delivery steps.</P>
          </>
        ),
      },
      {
        title: 'Accessing and sharing your badge',
        body: (
          <UL
            items={[
              <>Sign in and open your <A href="/profile">profile</A> to see every badge you have earned.</>,
              <>Each badge has a verification ID and a link of the form {'/verify/{id}'} that anyone can open to check it.</>,
              <>Share the link on LinkedIn, Twitter or in a CV; the credential stays valid unless it expires or is revoked.</>,
            ]}
          />
        ),
      },
      {
        title: 'Missing badge',
        body: (
          <P>
            If you received an approval e-mail but the badge is not in your profile within 24 hours, contact support at {email} with
            the e-mail address of your account and your payment ID. We will investigate and deliver the badge, or correct the
            problem, as quickly as possible.
          </P>
        ),
      },
      {
        title: 'Delivery problems we cannot control',
        body: (
          <P>
            Notification e-mails can be delayed or filtered by your e-mail provider. Please check your spam folder and make sure the
            e-mail address on your account is correct. Your badge is always available in your profile, whether or not the e-mail
            arrives.
          </P>
        ),
      },
    ],
  },

  terms: {
    title: 'Terms and Conditions',
    href: '/termsandconditions',
    icon: <FileText />,
    intro: 'These terms govern your use of Meritmark. By creating an account or applying for a badge you agree to them.',
    sections: (email) => [
      {
        title: 'About these terms',
        body: (
          <P>
            Meritmark provides online assessments, document review and digital credentials ("badges"). These terms form an agreement
            between you and Meritmark. If you use Meritmark on behalf of an organisation, you confirm that you may accept these terms
            for it.
          </P>
        ),
      },
      {
        title: 'Your account',
        body: (
          <UL
            items={[
              'You must give accurate information, including your real name, because it appears on the badges you earn.',
              'An account is for one person. Keep your password confidential; you are responsible for activity under your account.',
              'You must be at least 16 years old to create an account.',
              'Tell us straight away if you think someone else has accessed your account.',
            ]}
          />
        ),
      },
      {
        title: 'Assessments and applications',
        body: (
          <>
            <P>
              Skill badges are earned by passing a timed quiz; proof badges by submitting documents such as certificates or work
              samples. You agree to:
            </P>
            <UL
              items={[
                'complete quizzes yourself, without help from other people and without sharing or publishing the questions;',
                'submit only documents that are genuine and that you have the right to share;',
                'accept that an administrator reviews every application and may approve or reject it, with a reason.',
              ]}
            />
            <P>A rejected applicant may apply again. Passing a quiz does not by itself guarantee that a badge will be granted.</P>
          </>
        ),
      },
      {
        title: 'Fees and payment',
        body: (
          <P>
            Badge fees are shown in US dollars before you pay, together with any coupon discount. Payments are processed by our
            payment provider; we never see or store your full card details. Any charged amount is at least $1.00 and no processing fee
            is added. Refunds are governed by our <A href="/cancellationsandrefunds">Cancellations and Refunds</A> policy.
          </P>
        ),
      },
      {
        title: 'Badges, verification and revocation',
        body: (
          <P>
            A badge is a signed digital credential that confirms you met its criteria at the time it was issued. Anyone with its
            verification link can see the badge, your name and the issue date. We may revoke a badge, and show it as revoked on its
            verification page, if it was obtained through cheating, false documents, a payment that was reversed, or a breach of
            these terms.
          </P>
        ),
      },
      {
        title: 'Acceptable use',
        body: (
          <UL
            items={[
              'Do not attempt to access other accounts, the admin area, or data that is not yours.',
              'Do not interfere with the service, probe it for vulnerabilities without permission, or overload it with automated requests.',
              'Do not misrepresent a badge, alter a credential, or claim a badge you have not earned.',
            ]}
          />
        ),
      },
      {
        title: 'Intellectual property',
        body: (
          <P>
            The Meritmark name, the platform, the quizzes and the badge designs belong to Meritmark or its licensors. You keep the
            rights to the documents you upload and give us permission to store and review them for your application.
          </P>
        ),
      },
      {
        title: 'Disclaimers and liability',
        body: (
          <P>
            Badges describe an assessment result; they are not a licence or a guarantee of employment. The service is provided "as
            is". To the extent permitted by law, Meritmark is not liable for indirect or consequential losses, and our total liability
            for any claim is limited to the fees you paid in the twelve months before it.
          </P>
        ),
      },
      {
        title: 'Changes and contact',
        body: (
          <P>
            We may update these terms; if a change is significant we will tell you by e-mail or on the site before it takes effect.
            Questions about these terms: {email}.
          </P>
        ),
      },
    ],
  },

  refunds: {
    title: 'Cancellations and Refunds',
    href: '/cancellationsandrefunds',
    icon: <Receipt />,
    intro: 'Review of your application begins as soon as you pay, so our refund rules are short and clear.',
    glance: [
      'Refund requests must be made within 7 days of the payment.',
      'Refunds are given only for duplicate payments or technical errors.',
      'Approved refunds are processed in 7-10 business days.',
      'No cancellations after payment.',
    ],
    sections: (email) => [
      {
        title: 'Cancellations',
        body: (
          <P>
            You can stop an application at any time before you pay, at no cost. Once a payment is completed the application goes to
            review and cannot be cancelled: there are no cancellations after payment.
          </P>
        ),
      },
      {
        title: 'When a refund is possible',
        body: (
          <>
            <P>Refunds are available only for:</P>
            <UL
              items={[
                <><strong>Duplicate payments</strong>: you were charged more than once for the same badge application.</>,
                <>
                  <strong>Technical errors</strong>: a fault on our side, for example you were charged but the payment was not
                  recorded against your application, or you were charged an amount different from the total shown at checkout.
                </>,
              ]}
            />
          </>
        ),
      },
      {
        title: 'When a refund is not possible',
        body: (
          <UL
            items={[
              'An application that was reviewed and rejected. You may correct it and apply again.',
              'A quiz that was not passed, or a change of mind after payment.',
              'A badge that was revoked because of a breach of our Terms and Conditions.',
            ]}
          />
        ),
      },
      {
        title: 'How to request a refund',
        body: (
          <>
            <P>Write to {email} within 7 days of the payment, from the e-mail address of your account, and include:</P>
            <UL items={['the badge you paid for;', 'the payment ID shown on your payment confirmation;', 'a short description of the duplicate charge or the error.']} />
          </>
        ),
      },
      {
        title: 'Processing time',
        body: (
          <P>
            We confirm by e-mail whether your request is approved. Approved refunds are processed in 7-10 business days and returned to
            the original payment method. Your bank or card issuer may take a few extra days to show the credit.
          </P>
        ),
      },
    ],
  },

  privacy: {
    title: 'Privacy Policy',
    href: '/privacypolicy',
    icon: <ShieldCheck />,
    intro: 'This policy explains what personal data Meritmark collects, why, who can see it, and the choices you have.',
    glance: [
      'We collect only what your account, applications and payments need.',
      'Badge verification pages are public; your documents are not.',
      'We never sell personal data.',
    ],
    sections: (email) => [
      {
        title: 'What we collect',
        body: (
          <UL
            items={[
              <><strong>Account</strong>: your name, e-mail address and password (stored only as a secure hash).</>,
              <><strong>Profile</strong>: position, LinkedIn and portfolio links and a profile picture, if you add them.</>,
              <><strong>Applications</strong>: quiz answers and scores, uploaded documents, and the reviewer's decision.</>,
              <>
                <strong>Payments</strong>: the amount, coupon and order and payment IDs. Card details are handled by our payment
                provider and never reach our servers.
              </>,
              <><strong>Technical data</strong>: a session cookie that keeps you signed in, and server logs with IP addresses kept for security.</>,
            ]}
          />
        ),
      },
      {
        title: 'How we use it',
        body: (
          <P>
            We use your data to run your account, grade quizzes, review applications, take payments, issue and verify badges, send
            service e-mails (such as password resets and review results), prevent fraud, and keep the service secure. We do not use
            it for advertising.
          </P>
        ),
      },
      {
        title: 'What is public',
        body: (
          <>
            <P>
              When you share a badge, its verification page shows the badge, your name and profile picture, your e-mail address masked
              to its first letter and domain (for example j***@example.com), the issue date and the verification ID. The Hall of Fame lists people who have earned badges with their name, title, company,
              badges and the LinkedIn or portfolio links they added.
            </P>
            <P>Uploaded documents, quiz answers and payment details are never public; only you and our reviewers can see them.</P>
          </>
        ),
      },
      {
        title: 'Who we share it with',
        body: (
          <P>
            We share data only with service providers that help us run Meritmark (hosting, file storage, e-mail delivery and payment
            processing), under contracts that limit their use of it, or when the law requires it. We never sell personal data.
          </P>
        ),
      },
      {
        title: 'Cookies and local storage',
        body: (
          <P>
            We use one essential cookie to keep you signed in, and your browser's local storage to remember your light or dark theme.
            We do not use advertising or cross-site tracking cookies.
          </P>
        ),
      },
      {
        title: 'Retention and security',
        body: (
          <P>
            We keep your account data while your account is open. Payment records are kept as long as tax and accounting law requires.
            Passwords are hashed, connections are encrypted, and every credential is signed so tampering is detectable.
          </P>
        ),
      },
      {
        title: 'Your rights',
        body: (
          <P>
            You can see and edit your profile at any time. To get a copy of your data, correct it, or delete your account, write to{' '}
            {email}. We answer requests within 30 days.
          </P>
        ),
      },
      {
        title: 'Changes',
        body: <P>If we change this policy in a way that matters, we will tell you by e-mail or on the site before the change takes effect.</P>,
      },
    ],
  },
};

export const order: Kind[] = ['shipping', 'terms', 'refunds', 'privacy'];
