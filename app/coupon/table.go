package coupon

// The coupons as a dense table (issue 37, item 1): GET /coupons with page, pageSize or
// sort pages and sorts in SQL; format=csv answers every coupon the filter shows. Without
// any of them the list stays the spec's plain array.

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Sorts are the columns the coupons table sorts by (newest first by default). The name
// sorts without regard to case, alike on both databases; percentages and dollar amounts
// do not compare, so the discount sorts the percentage coupons first, then the fixed ones,
// each by value in the direction asked.
var Sorts = []admin.SortCol{{Key: "code", Col: "code"}, {Key: "name", Col: "lower(name)"},
	{Key: "discountValue", Col: "discount_type DESC, discount_value"}, {Key: "usedCount", Col: "used_count"},
	{Key: "validUntil", Col: "valid_until"}, {Key: "createdAt", Col: "created_at"}}

// CSVHeader is the coupons export's first line.
var CSVHeader = []string{"id", "code", "name", "description", "discount type", "discount value", "minimum amount",
	"maximum discount", "usage limit", "used", "valid from", "valid until", "active", "status", "applicable badges",
	"applicable categories", "created"}

// List is the answer of a paged GET /coupons.
type List struct {
	Coupons  []View `json:"coupons"`
	PageSize int    `json:"pageSize"`
	admin.PageInfo
}

const likeEsc = ` ESCAPE '\'`

// filter is the coupons query narrowed to status at at (as Coupon.Status computes it) and
// to the search text in code, name or description.
func (s *Service) filter(q *bun.SelectQuery, status, search string, at time.Time) (*bun.SelectQuery, error) {
	const usable = "is_active = ? AND valid_from <= ? AND (usage_limit IS NULL OR used_count < usage_limit)"
	switch status {
	case "", "all":
	case model.CouponExpired:
		q = q.Where("valid_until < ?", at)
	case model.CouponActive:
		q = q.Where("valid_until >= ?", at).Where(usable, true, at)
	case model.CouponInactive:
		q = q.Where("valid_until >= ?", at).Where("NOT ("+usable+")", true, at)
	default:
		return nil, web.BadRequest(MsgStatusFilter)
	}
	if search = strings.TrimSpace(search); search != "" {
		p := admin.LikePattern(search)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("lower(code) LIKE ?"+likeEsc, p).
				WhereOr("lower(name) LIKE ?"+likeEsc, p).
				WhereOr("lower(description) LIKE ?"+likeEsc, p)
		})
	}
	return q, nil
}

// order is the table's ORDER BY: its sort, else newest first; ties by id.
func order(sort admin.Sort) string {
	if sort.Col == "" {
		sort = admin.Sort{Col: "created_at", Desc: true}
	}
	return sort.Order("")
}

// Page answers one page of the coupons the filter shows, in the sort's order.
func (s *Service) Page(ctx context.Context, status, search string, pg admin.Page) (*List, error) {
	var coupons []model.Coupon
	at := s.now()
	q, err := s.filter(s.DB.NewSelect().Model(&coupons), status, search, at)
	if err != nil {
		return nil, err
	}
	n, err := q.OrderExpr(order(pg.Sort)).Limit(int64(pg.Limit)).Offset(int64(pg.Offset())).ScanAndCount(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := viewsOf(ctx, s.DB, coupons, at)
	if err != nil {
		return nil, err
	}
	return &List{Coupons: vs, PageSize: pg.Limit, PageInfo: pg.Info(int64(n))}, nil
}

// exportChunk is how many coupons an export reads at a time.
const exportChunk = 500

// Export is every coupon the filter shows (all pages, in the sort's order) as CSV.
func (s *Service) Export(ctx context.Context, status, search string, sort admin.Sort) (*admin.CSVTable, error) {
	t := admin.NewCSV(CSVHeader)
	at := s.now()
	for off := 0; off < admin.MaxExportRows; off += exportChunk {
		var coupons []model.Coupon
		q, err := s.filter(s.DB.NewSelect().Model(&coupons), status, search, at)
		if err != nil {
			return nil, err
		}
		if err := q.OrderExpr(order(sort)).Limit(exportChunk).Offset(int64(off)).Scan(ctx); err != nil {
			return nil, err
		}
		vs, err := viewsOf(ctx, s.DB, coupons, at)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			badges := make([]string, len(v.ApplicableBadges))
			for i, b := range v.ApplicableBadges {
				badges[i] = b.Name
			}
			maxDiscount, limit := "", ""
			if v.MaximumDiscount != nil {
				maxDiscount = money(*v.MaximumDiscount)
			}
			if v.UsageLimit != nil {
				limit = strconv.Itoa(*v.UsageLimit)
			}
			value := strconv.FormatFloat(v.DiscountValue, 'f', -1, 64)
			if v.DiscountType == Fixed {
				value = money(v.DiscountValue)
			}
			from, until, created := v.ValidFrom, v.ValidUntil, v.CreatedAt
			t.Row(v.ID, v.Code, v.Name, v.Description, v.DiscountType, value, money(v.MinimumAmount), maxDiscount, limit,
				strconv.Itoa(v.UsedCount), admin.CSVTime(&from), admin.CSVTime(&until), strconv.FormatBool(v.IsActive), v.Status,
				strings.Join(badges, "; "), strings.Join(v.ApplicableCategories, "; "), admin.CSVTime(&created))
		}
		if len(coupons) < exportChunk {
			break
		}
	}
	return t, nil
}

func money(d float64) string { return strconv.FormatFloat(d, 'f', 2, 64) }
