package seed

import "meritmark/app/model"

type q struct {
	text        string
	options     []string
	correct     int
	difficulty  string
	explanation string
	topic       string
}

// mq is a multiple-response question ("select all that apply"): correct lists the right
// options; showCount makes the question say how many to pick.
type mq struct {
	text        string
	options     []string
	correct     []int
	showCount   bool
	difficulty  string
	explanation string
	topic       string
}

type badgeSeed struct {
	name, category, typ, level, icon, color string
	price                                   int64 // cents
	description, criteria                   string
	requiresResume                          bool
	questions                               []q
	multiple                                []mq                 // after questions in the pool
	blueprint                               []model.BlueprintRow // empty: draw len(questions)-1 per attempt
	families                                map[int]int          // question index -> the index it is a variant of
}

var badges = []badgeSeed{
	{
		name: "React Developer", category: "Development", typ: "skill", level: "intermediate", icon: "Code", color: "blue", price: 4900,
		description: "Shows you can build production React applications: components, state, effects and rendering.",
		criteria:    "Pass the React Developer assessment with a score of at least 70 percent within the time limit, then submit your resume and profile details for review by our credentialing team.",
		questions: []q{
			{"Which hook keeps a value between renders without causing a re-render when it changes?", []string{"useState", "useRef", "useMemo", "useEffect"}, 1, "medium", "useRef returns a mutable object whose .current survives renders; changing it does not trigger a render.", "Hooks"},
			{"What does React use the key prop on list items for?", []string{"Styling each item", "Matching items between renders", "Sorting the list", "Making items focusable"}, 1, "easy", "Keys let React match elements across renders so state stays with the right item.", "Rendering"},
			{"When does an effect with an empty dependency array run?", []string{"On every render", "Only after the first render (mount)", "Never", "Before the first render"}, 1, "easy", "An empty array means the effect has no dependencies, so it runs after mount (and cleans up on unmount).", "Hooks"},
			{"Which API renders React on the server to an HTML string?", []string{"renderToString", "createRoot", "hydrateRoot", "render"}, 0, "medium", "renderToString (react-dom/server) produces HTML; hydrateRoot attaches to it on the client.", "SSR"},
			{"What is the main benefit of lifting state up?", []string{"Faster renders", "Sharing one source of truth between components", "Less memory", "Avoiding props"}, 1, "medium", "Lifting state to the closest common parent lets siblings share and stay consistent.", "State"},
			{"Which value is NOT a valid return from a component?", []string{"null", "A string", "An array of elements", "A plain object"}, 3, "hard", "Components may return elements, strings, numbers, arrays, null or booleans, but not plain objects.", "Rendering"},
		},
	},
	{
		name: "Go Backend Engineer", category: "Development", typ: "skill", level: "advanced", icon: "Server", color: "cyan", price: 7900, requiresResume: true,
		description: "Proves command of Go for backend services: concurrency, errors, HTTP and databases.",
		criteria:    "Score at least 70 percent on the Go Backend Engineer assessment and submit a resume that shows backend work; reviewers check the resume against the assessment result.",
		questions: []q{
			{"What happens when you send on an unbuffered channel with no receiver ready?", []string{"The value is dropped", "The sender blocks", "It panics", "It returns an error"}, 1, "easy", "An unbuffered send blocks until a receiver takes the value.", "Concurrency"},
			{"Which is the idiomatic way to check an error's identity through wrapping?", []string{"err == target", "errors.Is(err, target)", "err.Error() == target.Error()", "reflect.DeepEqual"}, 1, "medium", "errors.Is walks the wrap chain created with %w.", "Errors"},
			{"What does context cancellation give a handler?", []string{"Faster JSON", "A signal to stop work the client no longer needs", "Automatic retries", "Thread safety"}, 1, "medium", "Cancellation propagates so downstream work can stop early.", "Context"},
			{"Which statement about maps is true?", []string{"They are safe for concurrent writes", "Iteration order is random", "They keep insertion order", "Keys can be slices"}, 1, "medium", "Go randomises map iteration order; concurrent writes need a lock.", "Language"},
			{"What does defer rows.Close() protect against?", []string{"SQL injection", "Leaking a database connection", "Deadlocks in the scheduler", "Slow queries"}, 1, "easy", "Open rows hold a connection until closed.", "Databases"},
		},
	},
	{
		name: "Open Source Contributor", category: "Development", typ: "proof", level: "intermediate", icon: "GitBranch", color: "green", price: 2900,
		description: "Recognises meaningful contributions to open source projects.",
		criteria:    "Provide links or documents showing at least three merged pull requests to public open source projects, or maintainership of a project with outside users.",
	},
	{
		name: "UX Design Fundamentals", category: "Design", typ: "skill", level: "beginner", icon: "Palette", color: "pink", price: 3900,
		description: "Covers the basics of user experience design: research, usability, hierarchy and accessibility.",
		criteria:    "Pass the UX Design Fundamentals quiz with at least 70 percent.",
		questions: []q{
			{"What is the main goal of a usability test?", []string{"To sell the product", "To see where real users struggle", "To pick colours", "To write code"}, 1, "easy", "Usability tests observe real people completing tasks to find friction.", "Research"},
			{"Which contrast ratio does WCAG AA require for normal body text?", []string{"2:1", "3:1", "4.5:1", "7:1"}, 2, "medium", "WCAG 2 AA asks for 4.5:1 for normal text and 3:1 for large text.", "Accessibility"},
			{"What does visual hierarchy help users do?", []string{"Load pages faster", "See what matters first", "Type less", "Remember passwords"}, 1, "easy", "Size, weight, colour and spacing direct attention to what matters.", "Visual design"},
			{"A persona is…", []string{"A real customer's account", "A research-based archetype of a user", "A logo style", "A test script"}, 1, "easy", "Personas summarise research into representative users.", "Research"},
			{"Which is the best place for a form's error message?", []string{"A popup after submit", "Next to the field it concerns", "In the page footer", "In the browser console"}, 1, "medium", "Inline errors beside the field are the fastest to understand and fix.", "Forms"},
		},
	},
	{
		name: "Product Design Portfolio", category: "Design", typ: "proof", level: "advanced", icon: "Layers", color: "purple", price: 5900,
		description: "For designers with a portfolio of shipped product work.",
		criteria:    "Submit a portfolio URL or documents with at least two end-to-end case studies of shipped products, covering research, iterations and measured outcomes.",
	},
	{
		name: "Agile Project Manager", category: "Management", typ: "skill", level: "intermediate", icon: "Kanban", color: "orange", price: 5900,
		description: "Validates practical knowledge of Scrum and Kanban delivery.",
		criteria:    "Pass the Agile Project Manager assessment with at least 70 percent.",
		questions: []q{
			{"How long is a Sprint in Scrum at most?", []string{"One week", "Two weeks", "One month", "One quarter"}, 2, "easy", "The Scrum Guide limits Sprints to one month or less.", "Scrum"},
			{"Who orders the Product Backlog?", []string{"The Scrum Master", "The Product Owner", "The Developers", "The stakeholders by vote"}, 1, "easy", "The Product Owner is accountable for ordering the Product Backlog.", "Scrum"},
			{"What does a WIP limit on a Kanban board do?", []string{"Caps work in progress to improve flow", "Limits team size", "Sets a deadline", "Counts bugs"}, 0, "medium", "Limiting work in progress exposes bottlenecks and shortens cycle time.", "Kanban"},
			{"What is the purpose of the Sprint Retrospective?", []string{"Demo the increment", "Plan the next release", "Find ways to improve how the team works", "Estimate the backlog"}, 2, "medium", "The Retrospective inspects the team's process and plans improvements.", "Scrum"},
			{"Velocity is best used to…", []string{"Compare teams", "Forecast the team's own capacity", "Rate individuals", "Set salaries"}, 1, "hard", "Velocity is a team-internal planning aid, not a performance metric.", "Metrics"},
		},
	},
	{
		name: "Team Leadership", category: "Management", typ: "proof", level: "advanced", icon: "Users", color: "amber", price: 6900,
		description: "For people who have led teams and grown others.",
		criteria:    "Provide evidence of leading a team of at least three people for a year or more, such as a reference letter, performance reviews you wrote, or a portfolio of team outcomes.",
	},
	{
		name: "SQL Data Analyst", category: "Data Science", typ: "skill", level: "beginner", icon: "Database", color: "teal", price: 3900,
		description: "Shows you can answer business questions with SQL.",
		criteria:    "Pass the SQL Data Analyst quiz with a score of 70 percent or more.",
		// the demo of a real exam's bank: three topics with a blueprint (3 + 2 + 2 per form
		// from a pool of 10 + 8 + 6, so each item sits on about a third of the forms and the
		// 40 % exposure cap steers the draw), three families (variants never share a form),
		// both item types, and the simulated attempts of attempts.go
		blueprint: []model.BlueprintRow{{Topic: "Aggregation", Count: 3}, {Topic: "Joins & filtering", Count: 2}, {Topic: "Query design", Count: 2}},
		families:  map[int]int{6: 2, 15: 8, 19: 18},
		questions: []q{
			{"Which clause filters groups after aggregation?", []string{"WHERE", "HAVING", "ORDER BY", "LIMIT"}, 1, "easy", "HAVING filters on aggregated groups; WHERE filters rows before grouping.", "Aggregation"},
			{"What does a LEFT JOIN return?", []string{"Only matching rows", "All rows from the left table, with matches from the right", "All rows from both tables", "Only unmatched rows"}, 1, "easy", "Unmatched left rows appear with NULLs for the right side.", "Joins & filtering"},
			{"COUNT(column) counts…", []string{"All rows", "Rows where column is not NULL", "Distinct values", "NULL values"}, 1, "medium", "COUNT(*) counts rows; COUNT(col) skips NULLs.", "Aggregation"},
			{"Which window function numbers rows within a partition without gaps for ties?", []string{"ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE"}, 2, "hard", "DENSE_RANK gives ties the same rank and leaves no gaps.", "Aggregation"},
			{"What does an index mainly speed up?", []string{"Inserts", "Lookups and sorts on the indexed columns", "Backups", "Schema changes"}, 1, "medium", "Indexes speed reads on their columns at some cost to writes.", "Joins & filtering"},
			{"Which window function reads the value of the previous row in the partition?", []string{"LEAD", "LAG", "FIRST_VALUE", "ROW_NUMBER"}, 1, "medium", "LAG looks back a row (or n rows); LEAD looks ahead.", "Aggregation"},
			{"COUNT(DISTINCT column) counts…", []string{"Every row", "The different non-NULL values of column", "Duplicate values only", "NULL values"}, 1, "medium", "DISTINCT removes repeats and COUNT(col) skips NULLs.", "Aggregation"},
			{"AVG(column) over the values 2, NULL and 4 returns…", []string{"2", "3", "NULL", "6"}, 1, "hard", "Aggregates other than COUNT(*) skip NULLs: (2 + 4) / 2 = 3.", "Aggregation"},
			{"Which join returns only the rows that match in both tables?", []string{"LEFT JOIN", "INNER JOIN", "FULL JOIN", "CROSS JOIN"}, 1, "easy", "An INNER JOIN keeps only the pairs that meet the join condition.", "Joins & filtering"},
			{"Which condition finds rows where column has no value?", []string{"column = NULL", "column IS NULL", "column = ''", "NOT column"}, 1, "medium", "NULL is never equal to anything, itself included; IS NULL tests for it.", "Joins & filtering"},
			{"Which query returns one row per customer with the total of their orders?", []string{"SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id", "SELECT customer_id, amount FROM orders ORDER BY customer_id", "SELECT SUM(amount) FROM orders", "SELECT DISTINCT customer_id FROM orders"}, 0, "easy", "GROUP BY makes one group per customer and SUM adds up each group's amounts.", "Aggregation"},
			{"A column selected beside an aggregate, and not aggregated itself, must…", []string{"Be indexed", "Appear in GROUP BY", "Be NOT NULL", "Be numeric"}, 1, "medium", "Standard SQL requires every selected column that is not aggregated to be one of the grouping columns.", "Aggregation"},
			{"SUM(amount) OVER (ORDER BY day) gives each row…", []string{"The total of every day", "A running total up to that row's day", "The average per day", "The number of days"}, 1, "hard", "With ORDER BY and the default frame, a window aggregate is cumulative.", "Aggregation"},
			{"Which operator matches 'Ann', 'Anna' and 'Annette'?", []string{"name = 'Ann*'", "name LIKE 'Ann%'", "name IN ('Ann')", "name > 'Ann'"}, 1, "easy", "LIKE with % matches any run of characters after the prefix.", "Joins & filtering"},
			{"Which query finds the customers who have no orders?", []string{"customers INNER JOIN orders … WHERE orders.id IS NULL", "customers LEFT JOIN orders … WHERE orders.id IS NULL", "customers CROSS JOIN orders", "customers JOIN orders … WHERE orders.id IS NOT NULL"}, 1, "hard", "A LEFT JOIN keeps every customer; those without a match have NULL in the order columns.", "Joins & filtering"},
			{"Which join keeps only the pairs of rows that meet the join condition?", []string{"FULL OUTER JOIN", "LEFT JOIN", "INNER JOIN", "CROSS JOIN"}, 2, "easy", "An INNER JOIN drops the rows of either side that have no match.", "Joins & filtering"},
			{"What does a primary key guarantee?", []string{"Fast inserts", "Each row is unique and can be named by it", "The rows are stored sorted", "The table cannot be dropped"}, 1, "easy", "A primary key is unique and never NULL, so it identifies each row.", "Query design"},
			{"Why send a query with parameters instead of building the SQL text from input?", []string{"It is shorter", "The input cannot change the statement", "It skips the indexes", "The result is cached forever"}, 1, "easy", "Parameters travel as values, never as SQL, which prevents SQL injection.", "Query design"},
			{"What is the best way to read the 10 newest orders?", []string{"Read every order and keep the last 10 in the application", "ORDER BY created_at DESC LIMIT 10", "LIMIT 10 alone", "GROUP BY created_at LIMIT 10"}, 1, "medium", "Sort and limit in the database: without ORDER BY, LIMIT returns arbitrary rows.", "Query design"},
			{"Without ORDER BY, the 10 rows a LIMIT 10 query returns are…", []string{"The first 10 inserted", "Any 10 rows: the order is not defined", "The 10 smallest primary keys", "Sorted by the first column"}, 1, "medium", "A table has no order of its own; only ORDER BY defines one.", "Query design"},
			{"Which normal form removes columns that depend on only part of a composite key?", []string{"First normal form", "Second normal form", "Third normal form", "Fifth normal form"}, 1, "hard", "Second normal form requires every non-key column to depend on the whole key.", "Query design"},
		},
		multiple: []mq{
			{"Which of these are aggregate functions? Select all that apply.", []string{"MIN", "COALESCE", "MAX", "UPPER", "AVG"}, []int{0, 2, 4}, true, "easy",
				"MIN, MAX and AVG reduce many rows to one value; COALESCE and UPPER work on one row at a time.", "Aggregation"},
			{"Which conditions keep a row whose price is 10? Select all that apply.", []string{"price BETWEEN 5 AND 10", "price IN (10, 20)", "price > 10", "price <> 10", "price >= 10"}, []int{0, 1, 4}, false, "medium",
				"BETWEEN includes both ends and >= includes 10; > and <> leave it out.", "Joins & filtering"},
			{"Which help WHERE customer_id = ? run fast on a large table? Select all that apply.", []string{"An index on customer_id", "Selecting only the columns needed", "Wrapping customer_id in a function", "SELECT DISTINCT *"}, []int{0, 1}, false, "hard",
				"An index finds the rows directly and fewer columns mean less to read; a function on the column keeps the index from being used and DISTINCT adds work.", "Query design"},
		},
	},
	{
		name: "Machine Learning Practitioner", category: "Data Science", typ: "proof", level: "advanced", icon: "Brain", color: "indigo", price: 8900,
		description: "For practitioners who have trained and deployed models.",
		criteria:    "Submit documents or a portfolio describing at least one model you trained and deployed, with the data, the evaluation method and the measured results.",
	},
	{
		name: "Digital Marketing Essentials", category: "Marketing", typ: "skill", level: "beginner", icon: "Megaphone", color: "red", price: 2900,
		description: "Covers search, social, e-mail and measurement basics.",
		criteria:    "Pass the Digital Marketing Essentials quiz with at least 70 percent.",
		questions: []q{
			{"What does CTR stand for?", []string{"Cost to reach", "Click-through rate", "Customer tracking record", "Conversion total ratio"}, 1, "easy", "Click-through rate is clicks divided by impressions.", "Metrics"},
			{"Which is an owned channel?", []string{"A paid search ad", "Your e-mail newsletter", "A press mention", "A sponsored post"}, 1, "easy", "Owned channels are those you control, such as your site and your list.", "Channels"},
			{"An A/B test compares…", []string{"Two audiences", "Two versions of one thing on similar traffic", "Two budgets", "Two products"}, 1, "medium", "A/B tests split similar traffic between variants to measure the effect.", "Experimentation"},
			{"What is a UTM parameter for?", []string{"Speeding up pages", "Tagging links to attribute traffic", "Encrypting e-mail", "Blocking spam"}, 1, "medium", "UTM tags let analytics attribute visits to campaigns.", "Analytics"},
			{"Which metric best reflects e-mail list health?", []string{"Total sends", "Bounce and unsubscribe rates", "Subject length", "Number of images"}, 1, "hard", "Rising bounces or unsubscribes signal a list or content problem.", "E-mail"},
		},
	},
	{
		name: "Community Builder", category: "Marketing", typ: "proof", level: "beginner", icon: "HeartHandshake", color: "rose", price: 0,
		description: "A free badge for people who organise and grow professional communities.",
		criteria:    "Show that you organised at least one meetup, online community or event series, with a link or a document describing it.",
	},
	{
		name: "Docker & Containers", category: "DevOps", typ: "skill", level: "intermediate", icon: "Container", color: "sky", price: 4900,
		description: "Shows you can build, run and ship containerised applications.",
		criteria:    "Pass the Docker & Containers assessment with at least 70 percent within 15 minutes.",
		questions: []q{
			{"What does each instruction in a Dockerfile usually create?", []string{"A container", "An image layer", "A volume", "A network"}, 1, "easy", "Most instructions add a layer to the image.", "Images"},
			{"Why copy dependency manifests before the source code in a Dockerfile?", []string{"Smaller images", "Better layer caching", "Security", "It is required"}, 1, "medium", "Dependencies change less often, so their layer stays cached.", "Images"},
			{"Where should a container keep data that must survive restarts?", []string{"In the container's filesystem", "In a volume", "In an environment variable", "In the image"}, 1, "easy", "Volumes outlive containers.", "Storage"},
			{"What does a multi-stage build help with?", []string{"Running several containers", "Leaving build tools out of the final image", "Faster networking", "Logging"}, 1, "medium", "Only the artefacts copied into the last stage ship.", "Images"},
			{"Which signal does docker stop send first?", []string{"SIGKILL", "SIGTERM", "SIGHUP", "SIGINT"}, 1, "hard", "docker stop sends SIGTERM, then SIGKILL after the grace period.", "Runtime"},
		},
		multiple: []mq{
			{"Which of these are Dockerfile instructions? Select all that apply.", []string{"FROM", "COPY", "DEPLOY", "EXPOSE", "BUILDNOW"}, []int{0, 1, 3}, true, "easy",
				"FROM, COPY and EXPOSE are instructions; DEPLOY and BUILDNOW are not.", "Images"},
			{"Which make an image smaller? Select all that apply.", []string{"A slim or distroless base image", "A multi-stage build", "More RUN instructions", "Copying the .git folder in"}, []int{0, 1}, false, "medium",
				"A small base and leaving build tools behind shrink the image; extra layers and stray files grow it.", "Images"},
		},
	},
	{
		name: "Cloud Infrastructure Engineer", category: "DevOps", typ: "proof", level: "advanced", icon: "Cloud", color: "slate", price: 7900,
		description: "For engineers who design and run cloud infrastructure.",
		criteria:    "Submit certifications, architecture documents or a portfolio showing infrastructure you designed and operated in production, including how it was monitored and recovered.",
	},
}
