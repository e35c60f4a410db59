package web

import (
	"encoding/json"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// BindJSON decodes the JSON request body into v, answering 400 with a clear message for
// a missing or malformed body. Unknown fields are ignored (the spec's clients send extra
// fields such as amount, which the server never trusts).
func BindJSON(c fiber.Ctx, v any) error {
	body := c.Body()
	if len(strings.TrimSpace(string(body))) == 0 {
		return BadRequest("The request body is empty; expected JSON.")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return BadRequest(MsgInvalidJSON)
	}
	return nil
}

// OK answers {"msg": msg} with 200.
func OK(c fiber.Ctx, msg string) error { return c.JSON(fiber.Map{"msg": msg}) }
