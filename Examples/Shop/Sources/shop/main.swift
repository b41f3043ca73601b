import CoordinatorServer
import ShopApp

// `shop serve --port 8080 --database ./shop.sqlite`, and every other coordinatord command.
await CoordinatorServer.main(Shop.served)
