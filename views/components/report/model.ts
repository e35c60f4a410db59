// The public technical report's data (app/quiz Report, app/badge ReportProps).

export type ScoreBin = { from: number; to: number; count: number };

export type ReportFigures = {
  n: number;
  minAttempts: number;
  enough: boolean;
  message?: string;
  formLength: number;
  reliability: number | null;
  sem: number | null;
  decisionConsistency: number | null;
  kappa: number | null;
  passRate: number | null;
  from: string | null;
  until: string | null;
  distribution: ScoreBin[] | null;
  demoAttempts: number;
};

export type ReportAssessment = {
  title: string;
  passingScore: number;
  /** how the pass mark was set ("modified Angoff, 6 raters, 2026-12-01"); '' = a fixed percentage */
  passMarkMethod: string;
  /** the same in a sentence ("Pass mark: 68%, set by a modified-Angoff panel of 6 raters on 2026-12-01.") */
  passMarkText: string;
  questionsPerAttempt: number;
  poolSize: number;
  blueprint: { topic: string; count: number }[];
  timeLimit: number;
  retakeRule: { waitHours: number; maxAttempts: number; periodDays: number; text: string };
  attempts: number;
  holders: number;
};

export type TechnicalReport = {
  assessment: ReportAssessment;
  exposureRate: number;
  exposureWindow: number;
  figures: ReportFigures;
};

/** What the page says instead of a withheld figure (app/measure NotEnough). */
export const NOT_ENOUGH = 'not enough attempts yet';
