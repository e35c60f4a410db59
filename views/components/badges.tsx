// Shared pieces of the badge screens: the badge's icon tile in its colour, and its price.
import type { LucideIcon } from 'lucide-react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Brain from 'lucide-react/icons/brain';
import Briefcase from 'lucide-react/icons/briefcase';
import ChartColumn from 'lucide-react/icons/chart-column';
import Cloud from 'lucide-react/icons/cloud';
import Code from 'lucide-react/icons/code';
import Container from 'lucide-react/icons/container';
import Cpu from 'lucide-react/icons/cpu';
import Database from 'lucide-react/icons/database';
import GitBranch from 'lucide-react/icons/git-branch';
import Globe from 'lucide-react/icons/globe';
import GraduationCap from 'lucide-react/icons/graduation-cap';
import HeartHandshake from 'lucide-react/icons/heart-handshake';
import Kanban from 'lucide-react/icons/kanban';
import Layers from 'lucide-react/icons/layers';
import Lightbulb from 'lucide-react/icons/lightbulb';
import Lock from 'lucide-react/icons/lock';
import Megaphone from 'lucide-react/icons/megaphone';
import Palette from 'lucide-react/icons/palette';
import PenTool from 'lucide-react/icons/pen-tool';
import Rocket from 'lucide-react/icons/rocket';
import Server from 'lucide-react/icons/server';
import Shield from 'lucide-react/icons/shield';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Smartphone from 'lucide-react/icons/smartphone';
import Star from 'lucide-react/icons/star';
import Target from 'lucide-react/icons/target';
import Terminal from 'lucide-react/icons/terminal';
import Trophy from 'lucide-react/icons/trophy';
import Users from 'lucide-react/icons/users';
import { cn } from '../lib/cn';
import { money } from '../lib/format';

// The icons a badge may name (admins pick one); anything else shows Award.
const ICONS: Record<string, LucideIcon> = {
  Award, BadgeCheck, Brain, Briefcase, ChartColumn, BarChart: ChartColumn, Cloud, Code, Container, Cpu, Database, GitBranch,
  Globe, GraduationCap, HeartHandshake, Kanban, Layers, Lightbulb, Lock, Megaphone, Palette, PenTool, Rocket, Server, Shield,
  ShieldCheck, Smartphone, Star, Target, Terminal, Trophy, Users,
};

// Literal class strings so Tailwind keeps them.
const COLORS: Record<string, string> = {
  blue: 'bg-blue-500/12 text-blue-600 ring-blue-500/25 dark:text-blue-400',
  sky: 'bg-sky-500/12 text-sky-600 ring-sky-500/25 dark:text-sky-400',
  cyan: 'bg-cyan-500/12 text-cyan-700 ring-cyan-500/25 dark:text-cyan-400',
  teal: 'bg-teal-500/12 text-teal-700 ring-teal-500/25 dark:text-teal-400',
  green: 'bg-green-500/12 text-green-700 ring-green-500/25 dark:text-green-400',
  emerald: 'bg-emerald-500/12 text-emerald-700 ring-emerald-500/25 dark:text-emerald-400',
  lime: 'bg-lime-500/15 text-lime-700 ring-lime-500/25 dark:text-lime-400',
  yellow: 'bg-yellow-500/15 text-yellow-700 ring-yellow-500/25 dark:text-yellow-400',
  amber: 'bg-amber-500/15 text-amber-700 ring-amber-500/25 dark:text-amber-400',
  orange: 'bg-orange-500/12 text-orange-600 ring-orange-500/25 dark:text-orange-400',
  red: 'bg-red-500/12 text-red-600 ring-red-500/25 dark:text-red-400',
  rose: 'bg-rose-500/12 text-rose-600 ring-rose-500/25 dark:text-rose-400',
  pink: 'bg-pink-500/12 text-pink-600 ring-pink-500/25 dark:text-pink-400',
  purple: 'bg-purple-500/12 text-purple-600 ring-purple-500/25 dark:text-purple-400',
  violet: 'bg-violet-500/12 text-violet-600 ring-violet-500/25 dark:text-violet-400',
  indigo: 'bg-indigo-500/12 text-indigo-600 ring-indigo-500/25 dark:text-indigo-400',
  slate: 'bg-slate-500/12 text-slate-700 ring-slate-500/25 dark:text-slate-300',
  gray: 'bg-gray-500/12 text-gray-700 ring-gray-500/25 dark:text-gray-300',
};

export function BadgeIcon({ icon, color, size = 'md', className }: { icon: string; color: string; size?: 'md' | 'lg'; className?: string }) {
  const Icon = ICONS[icon] || Award;
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex shrink-0 items-center justify-center rounded-xl ring-1 ring-inset',
        COLORS[color] || 'bg-primary/10 text-primary ring-primary/25',
        size === 'lg' ? 'h-16 w-16 sm:h-20 sm:w-20' : 'h-12 w-12',
        className,
      )}
    >
      <Icon className={size === 'lg' ? 'h-8 w-8 sm:h-10 sm:w-10' : 'h-6 w-6'} />
    </div>
  );
}

/** '$49.00', or 'Free' for a free badge. */
export function priceLabel(price: number): string {
  return price > 0 ? money(price) : 'Free';
}
