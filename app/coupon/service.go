package coupon

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// BadgeRef is an applicable badge as reads show it.
type BadgeRef struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// View is a coupon as the admin API answers it (spec section 3): discountValue is a
// percent for percentage coupons and dollars for fixed ones, amounts are dollars, and
// status is computed now.
type View struct {
	ID                   string     `json:"_id"`
	Code                 string     `json:"code"`
	Name                 string     `json:"name"`
	Description          string     `json:"description"`
	DiscountType         string     `json:"discountType"`
	DiscountValue        float64    `json:"discountValue"`
	MinimumAmount        float64    `json:"minimumAmount"`
	MaximumDiscount      *float64   `json:"maximumDiscount"`
	UsageLimit           *int       `json:"usageLimit"`
	UsedCount            int        `json:"usedCount"`
	ValidFrom            time.Time  `json:"validFrom"`
	ValidUntil           time.Time  `json:"validUntil"`
	IsActive             bool       `json:"isActive"`
	ApplicableBadges     []BadgeRef `json:"applicableBadges"`
	ApplicableCategories []string   `json:"applicableCategories"`
	Status               string     `json:"status"`
	CreatedAt            time.Time  `json:"createdAt"`
	UpdatedAt            time.Time  `json:"updatedAt"`
}

// Stats are the coupon cards.
type Stats struct {
	TotalCoupons   int        `json:"totalCoupons"`
	ActiveCoupons  int        `json:"activeCoupons"`
	ExpiredCoupons int        `json:"expiredCoupons"`
	TopUsedCoupons []TopUsage `json:"topUsedCoupons"`
}

// TopUsage is one of the most used coupons.
type TopUsage struct {
	Code      string `json:"code"`
	UsedCount int    `json:"usedCount"`
}

// TopUsedLimit is how many coupons the stats list as most used.
const TopUsedLimit = 5

// Service runs the coupon administration; each change is one transaction with its audit
// entry.
type Service struct {
	DB *bun.DB
	// Clock is the time source (nil = model.Now); tests move it to check status boundaries.
	Clock func() time.Time
}

func (s *Service) now() time.Time {
	if s.Clock != nil {
		return s.Clock().UTC().Truncate(time.Microsecond)
	}
	return model.Now()
}

func toView(c model.Coupon, names map[string]string, at time.Time) View {
	v := View{ID: c.ID, Code: c.Code, Name: c.Name, Description: c.Description, DiscountType: c.DiscountType,
		DiscountValue: c.DollarsOrPercent(), MinimumAmount: float64(c.MinimumCents) / 100, UsageLimit: c.UsageLimit,
		UsedCount: c.UsedCount, ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil, IsActive: c.IsActive,
		ApplicableBadges: []BadgeRef{}, ApplicableCategories: c.ApplicableCategories, Status: c.Status(at),
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	if c.MaximumDiscountCents != nil {
		m := float64(*c.MaximumDiscountCents) / 100
		v.MaximumDiscount = &m
	}
	if v.ApplicableCategories == nil {
		v.ApplicableCategories = []string{}
	}
	for _, id := range c.ApplicableBadges {
		if n, ok := names[id]; ok {
			v.ApplicableBadges = append(v.ApplicableBadges, BadgeRef{ID: id, Name: n})
		}
	}
	return v
}

func badgeNames(ctx context.Context, db bun.IDB, coupons []model.Coupon) (map[string]string, error) {
	var ids []string
	for _, c := range coupons {
		ids = append(ids, c.ApplicableBadges...)
	}
	names := map[string]string{}
	if len(ids) == 0 {
		return names, nil
	}
	var badges []model.Badge
	if err := db.NewSelect().Model(&badges).Column("id", "name").Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, b := range badges {
		names[b.ID] = b.Name
	}
	return names, nil
}

func viewsOf(ctx context.Context, db bun.IDB, coupons []model.Coupon, at time.Time) ([]View, error) {
	names, err := badgeNames(ctx, db, coupons)
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(coupons))
	for _, c := range coupons {
		out = append(out, toView(c, names, at))
	}
	return out, nil
}

func (s *Service) viewOf(ctx context.Context, db bun.IDB, c model.Coupon) (*View, error) {
	vs, err := viewsOf(ctx, db, []model.Coupon{c}, s.now())
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// List answers the coupons (newest first) whose status matches (all, active, inactive,
// expired) and whose code, name or description contains search.
func (s *Service) List(ctx context.Context, status, search string) ([]View, error) {
	switch status {
	case "", "all", model.CouponActive, model.CouponInactive, model.CouponExpired:
	default:
		return nil, web.BadRequest(MsgStatusFilter)
	}
	var coupons []model.Coupon
	if err := s.DB.NewSelect().Model(&coupons).Order("created_at DESC", "code ASC").Scan(ctx); err != nil {
		return nil, err
	}
	at := s.now()
	search = strings.ToLower(strings.TrimSpace(search))
	kept := coupons[:0]
	for _, c := range coupons {
		if status != "" && status != "all" && c.Status(at) != status {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(c.Code+"\n"+c.Name+"\n"+c.Description), search) {
			continue
		}
		kept = append(kept, c)
	}
	return viewsOf(ctx, s.DB, kept, at)
}

// Stats answers the coupon counts and the most used coupons.
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	var coupons []model.Coupon
	if err := s.DB.NewSelect().Model(&coupons).Column("code", "used_count", "usage_limit", "valid_from", "valid_until", "is_active").Scan(ctx); err != nil {
		return Stats{}, err
	}
	at := s.now()
	st := Stats{TotalCoupons: len(coupons), TopUsedCoupons: []TopUsage{}}
	for _, c := range coupons {
		switch c.Status(at) {
		case model.CouponActive:
			st.ActiveCoupons++
		case model.CouponExpired:
			st.ExpiredCoupons++
		}
		if c.UsedCount > 0 {
			st.TopUsedCoupons = append(st.TopUsedCoupons, TopUsage{Code: c.Code, UsedCount: c.UsedCount})
		}
	}
	sort.SliceStable(st.TopUsedCoupons, func(i, j int) bool {
		a, b := st.TopUsedCoupons[i], st.TopUsedCoupons[j]
		if a.UsedCount != b.UsedCount {
			return a.UsedCount > b.UsedCount
		}
		return a.Code < b.Code
	})
	if len(st.TopUsedCoupons) > TopUsedLimit {
		st.TopUsedCoupons = st.TopUsedCoupons[:TopUsedLimit]
	}
	return st, nil
}

// Create adds a coupon from the form, with the defaults for what is not given.
func (s *Service) Create(ctx context.Context, actor *model.User, in Input) (*View, error) {
	at := s.now()
	c := NewCoupon(at)
	msg, badgeIDs := Apply(&c, in)
	if msg != "" {
		return nil, web.BadRequest(msg).On(FieldOf(msg))
	}
	c.ID = model.NewID()
	c.CreatedAt, c.UpdatedAt = at, at
	if actor != nil {
		id := actor.ID
		c.CreatedBy = &id
	}
	var out *View
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkBadges(ctx, tx, badgeIDs); err != nil {
			return err
		}
		if err := insert(ctx, tx, &c); err != nil {
			return err
		}
		var err error
		if out, err = s.viewOf(ctx, tx, c); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "coupon.create", "coupon", c.ID, nil, out)
	})
	return out, err
}

// Update edits a coupon: given fields change, absent ones keep their value.
func (s *Service) Update(ctx context.Context, actor *model.User, id string, in Input) (*View, error) {
	var out *View
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		before, err := s.viewOf(ctx, tx, *c)
		if err != nil {
			return err
		}
		msg, badgeIDs := Apply(c, in)
		if msg != "" {
			return web.BadRequest(msg).On(FieldOf(msg))
		}
		if err := checkBadges(ctx, tx, badgeIDs); err != nil {
			return err
		}
		taken, err := tx.NewSelect().Model((*model.Coupon)(nil)).Where("code = ?", c.Code).Where("id <> ?", id).Exists(ctx)
		if err != nil {
			return err
		}
		if taken {
			return web.Conflict(MsgCodeTaken).On("code")
		}
		c.UpdatedAt = s.now()
		if _, err := tx.NewUpdate().Model(c).WherePK().Column("code", "name", "description", "discount_type", "discount_value",
			"minimum_cents", "maximum_discount_cents", "usage_limit", "valid_from", "valid_until", "is_active",
			"applicable_badges", "applicable_categories", "updated_at").Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgCodeTaken).On("code")
			}
			return err
		}
		if out, err = s.viewOf(ctx, tx, *c); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "coupon.update", "coupon", id, before, out)
	})
	return out, err
}

// Toggle activates or deactivates a coupon.
func (s *Service) Toggle(ctx context.Context, actor *model.User, id string) (*View, error) {
	var out *View
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		before, err := s.viewOf(ctx, tx, *c)
		if err != nil {
			return err
		}
		c.IsActive = !c.IsActive
		c.UpdatedAt = s.now()
		if _, err := tx.NewUpdate().Model(c).WherePK().Column("is_active", "updated_at").Exec(ctx); err != nil {
			return err
		}
		if out, err = s.viewOf(ctx, tx, *c); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "coupon.toggle", "coupon", id, before, out)
	})
	return out, err
}

// Delete removes a coupon nobody has used. A coupon with redemptions, payments or an
// unfinished checkout is refused (409): deactivate it instead.
func (s *Service) Delete(ctx context.Context, actor *model.User, id string) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.UsedCount > 0 {
			return web.Conflict(MsgDeleteRedeemed)
		}
		for _, m := range []any{(*model.CouponRedemption)(nil), (*model.Payment)(nil), (*model.PaymentOrder)(nil)} {
			used, err := tx.NewSelect().Model(m).Where("coupon_id = ?", id).Exists(ctx)
			if err != nil {
				return err
			}
			if used {
				return web.Conflict(MsgDeleteRedeemed)
			}
		}
		before, err := s.viewOf(ctx, tx, *c)
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.Coupon)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "coupon.delete", "coupon", id, before, nil)
	})
}

// FreeGrant creates a single-use 100 % coupon with a generated code FREE-XXXXXXXXXXXXX (65 random bits), valid
// for 30 days.
func (s *Service) FreeGrant(ctx context.Context, actor *model.User) (*View, error) {
	var out *View
	for attempt := 0; attempt < 5; attempt++ {
		at := s.now()
		c := NewCoupon(at)
		one := 1
		c.ID, c.Code, c.DiscountValue, c.UsageLimit = model.NewID(), FreeGrantCode(), 10000, &one
		c.Name = "Free grant"
		c.Description = "100% off one badge (single use)."
		c.CreatedAt, c.UpdatedAt = at, at
		if actor != nil {
			id := actor.ID
			c.CreatedBy = &id
		}
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := insert(ctx, tx, &c); err != nil {
				return err
			}
			var err error
			if out, err = s.viewOf(ctx, tx, c); err != nil {
				return err
			}
			return audit.Write(ctx, tx, actor, "coupon.free_grant", "coupon", c.ID, nil, out)
		})
		var we *web.Error
		if errors.As(err, &we) && we.Msg == MsgCodeTaken {
			continue // a generated code collided: draw another
		}
		return out, err
	}
	return nil, errors.New("coupon: could not generate a free-grant code")
}

func insert(ctx context.Context, tx bun.Tx, c *model.Coupon) error {
	taken, err := tx.NewSelect().Model((*model.Coupon)(nil)).Where("code = ?", c.Code).Exists(ctx)
	if err != nil {
		return err
	}
	if taken {
		return web.Conflict(MsgCodeTaken).On("code")
	}
	if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return web.Conflict(MsgCodeTaken).On("code")
		}
		return err
	}
	return nil
}

func get(ctx context.Context, tx bun.Tx, id string) (*model.Coupon, error) {
	c := new(model.Coupon)
	if err := tx.NewSelect().Model(c).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, web.NotFound(MsgNotFound)
		}
		return nil, err
	}
	return c, nil
}

func checkBadges(ctx context.Context, tx bun.Tx, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	n, err := tx.NewSelect().Model((*model.Badge)(nil)).Where("id IN (?)", bun.List(ids)).Count(ctx)
	if err != nil {
		return err
	}
	if n != int64(len(ids)) {
		return web.BadRequest(MsgBadges).On("applicableBadges")
	}
	return nil
}
