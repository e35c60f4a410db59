package payment

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"

	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/paypalsim"
)

// The built-in simulator, used when no PayPal base URL is configured.
const (
	SimPath      = "/paypal-sim" // where the simulator's API is mounted for the browser
	SimClientID  = "meritmark-sandbox-simulator"
	SimWebhookID = "WH-MERITMARK-SIMULATOR"
	simBaseURL   = "http://paypal-simulator.internal" // in-process transport: never dialled
)

// Gateway is the PayPal the payment feature takes payments through: the real PayPal or
// the built-in simulator. The application's wiring chooses one (app/routes.go) and hands
// it to New.
type Gateway struct {
	Client    *Client
	WebhookID string
	// Sim is the built-in simulator, mounted under SimPath for the browser's approval
	// step; nil with a real PayPal.
	Sim      *paypalsim.Sim
	Provider ProviderView
}

// PayPal is the real PayPal at baseURL.
func PayPal(baseURL, clientID, secret, webhookID string) Gateway {
	return Gateway{
		Client:    NewClient(baseURL, clientID, secret, &http.Client{}),
		WebhookID: webhookID,
		Provider:  ProviderView{Mode: "paypal", ClientID: clientID},
	}
}

// Simulator is the built-in PayPal simulator (its secret from cfg.Secret), reached
// in-process by the same client that talks to the real PayPal. Its state is in the
// database d: every instance sharing it is one PayPal account. New points its webhooks
// at the service.
func Simulator(cfg *config.Config, d *bun.DB) Gateway {
	secret, err := cfg.Secret(nil, "paypal-simulator")
	if err != nil {
		slog.Warn("paypal simulator: could not keep its secret in the data dir; using a secret for this run only", "err", err)
		var b [32]byte
		_, _ = rand.Read(b[:])
		secret = hex.EncodeToString(b[:])
	}
	sim := paypalsim.NewShared(SimClientID, secret, SimWebhookID, d)
	sim.PublicBase = SimPath
	return Gateway{
		Client:    NewClient(simBaseURL, SimClientID, secret, &http.Client{Transport: paypalsim.Transport(sim)}),
		WebhookID: SimWebhookID,
		Sim:       sim,
		Provider:  ProviderView{Mode: "simulator", SimulatorPath: SimPath},
	}
}
